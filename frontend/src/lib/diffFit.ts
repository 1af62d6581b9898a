// How wide a diff must be to show side by side. Apart from diffLayout.ts
// (which highlights the rows) so the layout state and the first paint do
// not load highlight.js.

/** Characters each side of a side-by-side diff needs before it is the default. */
export const SPLIT_CHARS = 80;

/** A diff side's line-number gutter, sign and padding, in characters of the diff font. */
export const GUTTER_CHARS = 9;

/**
 * Side by side when the diff area has room for two columns of the diff's
 * own code (cols: its widest line, in characters) and their gutters, at
 * most two of SPLIT_CHARS (charWidth: the diff font's character width in
 * px); unified below that. A diff of long lines needs two columns of
 * SPLIT_CHARS, gutters not counted: they are what "about" 80 characters
 * leaves room for, and long lines wrap.
 */
export function chooseLayout(width: number, charWidth: number, cols: number = SPLIT_CHARS): "split" | "unified" {
  return width >= 2 * Math.min(cols + GUTTER_CHARS, SPLIT_CHARS) * charWidth ? "split" : "unified";
}
