import { describe, expect, it } from "vitest";
import { changedFile } from "../../test/fakeGit";
import type { BranchView } from "../../lib/wire.gen";
import { decideAll, feedbackMessage, mergeOf, rejectedHunks, setDecision, tally, undecided } from "../branch";

const view: BranchView = {
  sessionId: 1,
  version: "v1",
  branch: "pilot/fix",
  base: "9f3a2c1",
  worktree: "/w",
  files: [
    changedFile("a.go", [
      ["1", "2"],
      ["3", "4"],
    ]),
    changedFile("b.go", [["x", "y"]]),
    changedFile("c.go", [["p", "q"]]),
  ],
};

describe("branch decisions", () => {
  it("merges approved hunks only, and leaves out files with none approved", () => {
    let d = undecided(view);
    d = setDecision(d, 0, 1, "approved");
    d = setDecision(d, 1, 0, "rejected");
    expect(mergeOf(view, d, false)).toEqual({ files: [{ path: "a.go", hunks: [false, true] }], force: false });
    expect(tally(d)).toEqual({ approved: 1, rejected: 1, total: 4 });
    expect(mergeOf(view, decideAll(view, "rejected"), true)).toEqual({ files: [], force: true });
  });

  it("numbers rejected hunks across the files from 1, as pilot worktree merge --hunks does", () => {
    let d = decideAll(view, "approved");
    d = setDecision(d, 1, 0, "rejected");
    d = setDecision(d, 2, 0, "rejected");
    expect(rejectedHunks(view, d).map((r) => [r.path, r.number])).toEqual([
      ["b.go", 3],
      ["c.go", 4],
    ]);
    expect(feedbackMessage(view, d, "  ")).toBe(
      "I reviewed your branch pilot/fix and rejected these 2 hunks:\n- b.go, hunk 3 (line 10)\n- c.go, hunk 4 (line 10)\n\nPlease rework them on the branch.",
    );
  });

  it("says where a rejected hunk of several lines or a removal is", () => {
    const v: BranchView = { ...view, files: [{ path: "d.go", isNew: false, emptied: false, hunks: [
      { index: 0, oldStart: 4, oldLines: 1, newStart: 4, newLines: 3, lines: [] },
      { index: 1, oldStart: 9, oldLines: 2, newStart: 11, newLines: 0, lines: [] },
    ] }] };
    expect(rejectedHunks(v, decideAll(v, "rejected")).map((r) => r.range)).toEqual(["lines 4–6", "lines removed after line 11"]);
  });
});
