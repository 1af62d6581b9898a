// How much room a proposed change needs, from the diff itself: its widest
// line and how many lines it changes. The window gives the review that much
// beside the chat, and the whole window only to a change too big and too
// wide to read beside it (reviewPlacement in state/layout.ts).
import type { ChangeView, Hunk } from "./wire.gen";
import { GUTTER_CHARS, SPLIT_CHARS } from "./diffFit";

/** The diff font's character width (12 px monospace) used to size the review before it is drawn. */
export const CHAR_PX = 7.2;
/** The review panel's own padding, the card's border and padding, and a scroll bar, in px. */
export const CHROME_PX = 60;
/** Code columns a diff is given at least: short lines still get a readable column, and two of them (706 px) do not fit a 640 px window. */
export const MIN_COLUMNS = 40;

export interface DiffSize {
  /** The code columns the diff wants per side: its widest line, between MIN_COLUMNS and SPLIT_CHARS (longer lines wrap). */
  cols: number;
  /** Lines added and removed, over every file. */
  changed: number;
}

/** Tab stops count as four columns, as the diff table draws them. */
const columns = (text: string) => text.length + 3 * (text.match(/\t/g)?.length ?? 0);

/** The size of some hunks together. */
export function hunksSize(hunks: Iterable<Hunk>): DiffSize {
  let widest = 0;
  let changed = 0;
  for (const h of hunks)
    for (const l of h.lines) {
      widest = Math.max(widest, columns(l.text));
      if (l.kind !== "context") changed++;
    }
  return { cols: Math.max(MIN_COLUMNS, Math.min(SPLIT_CHARS, widest)), changed };
}

/** Each loaded change's size, measured once (the layout's selectors ask on every store update). */
const sizes = new WeakMap<ChangeView, DiffSize>();

function changeSize(ch: ChangeView): DiffSize {
  let s = sizes.get(ch);
  if (!s) sizes.set(ch, (s = hunksSize(ch.files.flatMap((f) => f.hunks))));
  return s;
}

/** The size of every loaded change together (changes still loading count as empty). */
export function diffSize(changes: (ChangeView | null | undefined)[]): DiffSize {
  let cols = MIN_COLUMNS;
  let changed = 0;
  for (const ch of changes) {
    if (!ch) continue;
    const s = changeSize(ch);
    cols = Math.max(cols, s.cols);
    changed += s.changed;
  }
  return { cols, changed };
}

/** The panel width (px) that shows the diff side by side without wrapping its lines (up to SPLIT_CHARS columns). */
export const splitPx = (s: DiffSize): number => Math.round(2 * Math.min(s.cols + GUTTER_CHARS, SPLIT_CHARS) * CHAR_PX + CHROME_PX);

/** The panel width (px) that shows the diff unified (one gutter of two line numbers and a sign). */
export const unifiedPx = (s: DiffSize): number => Math.round((s.cols + GUTTER_CHARS + 3) * CHAR_PX + CHROME_PX);
