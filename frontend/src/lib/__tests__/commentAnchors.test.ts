// Issue 40: a comment stays on its line when the change is re-proposed (or
// the branch moves on), or is marked outdated, as code-review tools do.
import { describe, expect, it } from "vitest";
import { placeComments, reanchor, shownLines, type ShownLine } from "../commentAnchors";
import type { Hunk, LineComment } from "../wire.gen";

const lines = (...texts: [number, string][]): ShownLine[] => texts.map(([no, text]) => ({ no, text }));

describe("reanchor", () => {
  const c = { line: 10, lineText: "  return total" };
  it.each([
    ["stays on its line when its text is still there", lines([9, "x"], [10, "  return total"]), { line: 10 }],
    ["follows its text when lines were inserted above", lines([10, "  log(total)"], [13, "  return total"]), { line: 13 }],
    ["follows its text when lines were removed above", lines([7, "  return total"], [10, "}"]), { line: 7 }],
    ["takes the nearest of equal lines", lines([2, "  return total"], [11, "  return total"], [30, "  return total"]), { line: 11 }],
    ["takes the one below on a tie", lines([8, "  return total"], [12, "  return total"]), { line: 12 }],
    ["ignores trailing white space (a CR, an editor's trim)", lines([10, "  return total \r"]), { line: 10 }],
    ["is outdated when its line was changed", lines([10, "  return sum"]), null],
    ["is outdated when the diff no longer shows it", lines(), null],
  ])("%s", (_name, shown, want) => {
    expect(reanchor(c, shown)).toEqual(want);
  });
  it("moves a range with its first line", () => {
    expect(reanchor({ line: 4, endLine: 6, lineText: "a" }, lines([1, "b"], [7, "a"]))).toEqual({ line: 7, endLine: 9 });
  });
  it("does not match a line's text against a different indentation", () => {
    expect(reanchor({ line: 1, lineText: "x" }, lines([1, "  x"]))).toBeNull();
  });
});

describe("placeComments over a re-proposed change", () => {
  // First proposal: line 3 added. Re-proposed: two lines added above it.
  const hunk = (lines: Hunk["lines"]): Hunk => ({ index: 0, oldStart: 1, oldLines: 2, newStart: 1, newLines: lines.length, lines });
  const again = [
    hunk([
      { kind: "context", text: "package a", oldNo: 1, newNo: 1 },
      { kind: "add", text: "// doc", newNo: 2 },
      { kind: "add", text: "// more doc", newNo: 3 },
      { kind: "add", text: "func F() int { return 1 }", newNo: 4 },
      { kind: "del", text: "func G() {}", oldNo: 2 },
    ]),
  ];
  const comment = (id: number, over: Partial<LineComment>): LineComment => ({
    id,
    sessionId: 1,
    path: "a.go",
    line: 3,
    lineText: "func F() int { return 1 }",
    text: "name it Total",
    origin: "change",
    state: "draft",
    ...over,
  });
  it("keeps a comment on its line, marks one on a changed line outdated, and leaves other files alone", () => {
    const kept = comment(1, {});
    const gone = comment(2, { line: 2, lineText: "func G() {}" });
    const before = comment(3, { state: "outdated" });
    const other = comment(4, { path: "b.go" });
    const { placed, outdated } = placeComments([kept, gone, before, other], "a.go", again);
    expect(placed).toEqual([{ comment: kept, line: 4 }]);
    expect(outdated).toEqual([gone, before]);
    expect(shownLines(again).map((l) => l.no)).toEqual([1, 2, 3, 4]);
  });
});
