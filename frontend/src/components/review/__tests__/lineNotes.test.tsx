// Issue 40: the slot every diff shares for what is anchored under a line
// (comments, /review's findings) and the "comment on this line" control.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import type { Hunk } from "../../../lib/wire.gen";
import DiffTable from "../DiffTable";
import { LineNotes, type LineNote } from "../lineNotes";

const hunk: Hunk = {
  index: 0,
  oldStart: 1,
  oldLines: 3,
  newStart: 1,
  newLines: 4,
  lines: [
    { kind: "context", text: "package main", oldNo: 1, newNo: 1 },
    { kind: "del", text: "func a() int { return 1 }", oldNo: 2 },
    { kind: "add", text: "func a() int { return 2 }", newNo: 2 },
    { kind: "add", text: "// added", newNo: 3 },
    { kind: "context", text: "}", oldNo: 3, newNo: 4 },
  ],
};

const note = (key: string, path: string, line: number): LineNote => ({ key, path, line, node: <p data-testid="note">{key}</p> });

describe("line notes in a diff table", () => {
  it.each(["split", "unified"] as const)("shows a note in a row right under its line (%s)", (layout) => {
    const notes = [note("mine", "a.go", 3), note("other-file", "b.go", 3)];
    const { container } = render(
      <LineNotes notes={notes}>
        <LineNotes notes={[note("inner", "a.go", 1)]}>
          <DiffTable hunk={hunk} lang="" layout={layout} path="a.go" />
        </LineNotes>
      </LineNotes>,
    );
    expect(screen.getAllByTestId("note").map((n) => n.textContent)).toEqual(["inner", "mine"]);
    const rows = Array.from(container.querySelectorAll("tr"));
    const under = rows.findIndex((r) => r.textContent?.includes("mine"));
    expect(rows[under]!.className).toBe("line-notes");
    expect(rows[under - 1]!.textContent).toContain("// added");
    // Without notes or an add control, no row is added and no button is drawn.
    expect(screen.queryByTestId("line-comment-add")).toBeNull();
  });

  it("gives each new-side line the add control, which reports the line and its text", () => {
    const onAdd = vi.fn();
    render(
      <LineNotes notes={[]} onAdd={onAdd}>
        <DiffTable hunk={hunk} lang="" layout="split" path="a.go" />
      </LineNotes>,
    );
    const buttons = screen.getAllByTestId("line-comment-add");
    expect(buttons.map((b) => b.dataset.line)).toEqual(["1", "2", "3", "4"]);
    fireEvent.click(buttons[1]!);
    expect(onAdd).toHaveBeenCalledWith({ path: "a.go", line: 2, text: "func a() int { return 2 }" }, false);
    fireEvent.click(buttons[2]!, { shiftKey: true });
    expect(onAdd).toHaveBeenLastCalledWith({ path: "a.go", line: 3, text: "// added" }, true);
  });

  it("moves a note when the notes change, without a stale row", () => {
    const { container, rerender } = render(
      <LineNotes notes={[note("n", "a.go", 2)]}>
        <DiffTable hunk={hunk} lang="" layout="unified" path="a.go" />
      </LineNotes>,
    );
    rerender(
      <LineNotes notes={[note("n", "a.go", 4)]}>
        <DiffTable hunk={hunk} lang="" layout="unified" path="a.go" />
      </LineNotes>,
    );
    const rows = Array.from(container.querySelectorAll("tr"));
    expect(rows.filter((r) => r.className === "line-notes")).toHaveLength(1);
    expect(rows.at(-1)!.textContent).toBe("n");
    expect(rows.at(-2)!.textContent).toContain("}");
  });
});
