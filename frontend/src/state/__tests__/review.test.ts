import { describe, expect, it } from "vitest";
import { allDecided, buildDecision, readyReview, setHunk } from "../review";
import type { ChangeView } from "../../lib/wire.gen";

const change: ChangeView = {
  approvalId: "a1",
  tool: "multi_patch",
  files: [
    { path: "a.go", isNew: false, emptied: false, hunks: [{ index: 0, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [] }, { index: 1, oldStart: 5, oldLines: 1, newStart: 5, newLines: 1, lines: [] }] },
    { path: "b.go", isNew: true, emptied: false, hunks: [{ index: 0, oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: [] }] },
  ],
};

describe("buildDecision", () => {
  it("sends each hunk's decision per file", () => {
    let r = readyReview(change);
    r = setHunk(r, 0, 0, "approved");
    r = setHunk(r, 0, 1, "rejected");
    expect(allDecided(r)).toBe(false);
    r = setHunk(r, 1, 0, "approved");
    expect(allDecided(r)).toBe(true);
    r = { ...r, feedback: "  keep the old name " };
    expect(buildDecision(r, "as_decided")).toEqual({
      files: [
        { path: "a.go", hunks: [true, false] },
        { path: "b.go", hunks: [true] },
      ],
      feedback: "keep the old name",
      alwaysAllow: false,
    });
  });

  it("approve all carries edits; reject all drops them and carries the feedback", () => {
    const r = { ...readyReview(change), edited: ["EDITED", null], feedback: "no" };
    expect(buildDecision(r, "approve_all")).toEqual({
      files: [
        { path: "a.go", hunks: [true, true], editedText: "EDITED" },
        { path: "b.go", hunks: [true] },
      ],
      feedback: "",
      alwaysAllow: false,
    });
    expect(buildDecision(r, "reject_all")).toEqual({
      files: [
        { path: "a.go", hunks: [false, false] },
        { path: "b.go", hunks: [false] },
      ],
      feedback: "no",
      alwaysAllow: false,
    });
  });
});
