// Where a line comment belongs in a diff shown again (a change re-proposed,
// a branch that moved on): on its line when the line's text is still
// there, else on the nearest line with that text, else outdated, as
// code-review tools do. A comment is anchored on lines of the file after
// the change (the new side: added and context lines), which is all a diff
// shows of it.
import type { Hunk, LineComment } from "./wire.gen";

/** Where a line is: the file (as the diff names it), its new-side number (from 1), and its text. */
export interface LineAnchor {
  path: string;
  line: number;
  text: string;
}

/** A new-side line a diff shows: its number and text. */
export interface ShownLine {
  no: number;
  text: string;
}

/** The new-side lines a file's hunks show, in order. */
export function shownLines(hunks: readonly Hunk[]): ShownLine[] {
  const out: ShownLine[] = [];
  for (const h of hunks) for (const l of h.lines) if (l.kind !== "del" && l.newNo !== undefined) out.push({ no: l.newNo, text: l.text });
  return out;
}

/** Lines compare without trailing white space (a CR, spaces an editor trimmed). */
const same = (a: string, b: string) => a.trimEnd() === b.trimEnd();

/**
 * Where a comment made on `line` (to `endLine`), whose first line read
 * `lineText`, sits among the lines shown now: the same number when its text
 * is there, else the line with that text nearest to the old number (the one
 * below on a tie: lines inserted above push it down), the range moved with
 * it; null when no shown line has the text (the comment is outdated).
 */
export function reanchor(c: { line: number; endLine?: number; lineText: string }, lines: readonly ShownLine[]): { line: number; endLine?: number } | null {
  let best: ShownLine | null = null;
  for (const l of lines) {
    if (!same(l.text, c.lineText)) continue;
    const d = Math.abs(l.no - c.line);
    const bd = best ? Math.abs(best.no - c.line) : Infinity;
    if (d < bd || (d === bd && best !== null && l.no > best.no)) best = l;
  }
  if (!best) return null;
  const shift = best.no - c.line;
  return c.endLine ? { line: best.no, endLine: c.endLine + shift } : { line: best.no };
}

/** A comment where a diff shows it now. */
export interface Placed<T> {
  comment: T;
  line: number;
  endLine?: number;
}

/** The comments on one file of a diff: those placed on a line shown now, and the outdated ones. */
export function placeComments<T extends LineComment>(comments: readonly T[], path: string, hunks: readonly Hunk[]): { placed: Placed<T>[]; outdated: T[] } {
  const lines = shownLines(hunks);
  const placed: Placed<T>[] = [];
  const outdated: T[] = [];
  for (const c of comments) {
    if (c.path !== path) continue;
    const at = c.state === "outdated" ? null : reanchor(c, lines);
    if (at) placed.push({ comment: c, ...at });
    else outdated.push(c);
  }
  return { placed, outdated };
}
