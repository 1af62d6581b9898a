// The slot every diff of the window shares for what is anchored under a
// line: comments, /review's findings. A view wraps its diffs in
// <LineNotes notes={...} onAdd={...}>; each diff table (DiffTable, inside
// a pending change's DiffView, the Branch view, the Changes view's
// FileDiffView) then shows, under the row of new-side line N of file P,
// the nodes of the notes with path P and line N, and, when some provider
// has onAdd, a `line-comment-add` button on every new-side line.
//
// Providers nest and add up: the notes of an inner <LineNotes> are shown
// with those of the outer ones, and the innermost onAdd wins. So a
// feature adds its own notes without knowing who else shows some:
//
//   <LineNotes notes={findings.map((f) => ({ key: `finding-${f.id}`, path: f.path, line: f.line, node: <Finding f={f} /> }))}>
//     <BranchReview ... />
//   </LineNotes>
//
// Lines are those of the file after the change (the new side): added and
// context lines; a row with only a deleted line has no slot.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { LineAnchor } from "../../lib/commentAnchors";

export type { LineAnchor };

/** Something shown under one line of one file. key is unique among all notes of the view. */
export interface LineNote {
  key: string;
  path: string;
  line: number;
  node: ReactNode;
}

/** A click on a line's `line-comment-add`; extend: Shift was held (extend the comment above to this line). */
export type AddAtLine = (anchor: LineAnchor, extend: boolean) => void;

interface Slot {
  notes: readonly LineNote[];
  onAdd?: AddAtLine;
}

const empty: Slot = { notes: [] };
const LineNotesContext = createContext<Slot>(empty);

/** Adds notes (and, optionally, the add control) to every diff inside. */
export function LineNotes({ notes, onAdd, children }: { notes: readonly LineNote[]; onAdd?: AddAtLine; children: ReactNode }) {
  const outer = useContext(LineNotesContext);
  const value = useMemo<Slot>(
    () => ({ notes: outer.notes.length === 0 ? notes : notes.length === 0 ? outer.notes : [...outer.notes, ...notes], onAdd: onAdd ?? outer.onAdd }),
    [outer, notes, onAdd],
  );
  return <LineNotesContext.Provider value={value}>{children}</LineNotesContext.Provider>;
}

/** The slot as a diff table reads it: the notes of one file by line, and the add control. */
export function useLineNotes(path: string | undefined): { byLine: ReadonlyMap<number, LineNote[]>; onAdd?: AddAtLine } {
  const slot = useContext(LineNotesContext);
  const byLine = useMemo(() => {
    const m = new Map<number, LineNote[]>();
    if (path === undefined) return m;
    for (const n of slot.notes) {
      if (n.path !== path) continue;
      const at = m.get(n.line);
      if (at) at.push(n);
      else m.set(n.line, [n]);
    }
    return m;
  }, [slot.notes, path]);
  return { byLine, onAdd: path === undefined ? undefined : slot.onAdd };
}
