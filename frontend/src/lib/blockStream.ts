// Incremental splitting of streamed Markdown. A message grows by appended
// deltas; each update scans only the text added since the last one, so the
// cost of a delta does not grow with the length of the message.
//
// BlockStream splits at blank lines outside fenced code (top-level blocks).
// A long plain paragraph (one block with no line break in sight, as a model
// sometimes writes) is cut further by ParagraphStream into inline segments
// at spaces where no inline construct is open, so that only the last
// segment is parsed again. Both are pure functions of the text: the pieces
// of a prefix are the finished pieces of the whole, and a finished message
// splits exactly as it did while it streamed (nothing is re-rendered when it
// completes).

const fenceRe = /^ {0,3}(`{3,}|~{3,})/;
const indentedRe = /^\s+\S/;

/** The pieces of a text: finished ones (the array changes only when one is added) and the open tail. */
export type Pieces = { done: string[]; open: string };

/**
 * Splits Markdown into top-level blocks at blank lines outside fenced code.
 * A blank line followed by an indented line (list continuation, indented
 * code) does not split. Joining the blocks with "\n\n" gives back the text
 * up to whitespace.
 */
export class BlockStream {
  private src = "";
  private pos = 0; // start of the first line not yet scanned
  private cur = ""; // the open block's complete lines, joined
  private curLines = 0;
  private fence: string | null = null;
  /** A blank line after cur: it ends cur unless the next line is indented. */
  private blank: { line: string; ended: string[] } | null = null;
  private done: string[] = [];

  update(src: string): Pieces {
    if (!src.startsWith(this.src)) this.reset();
    this.src = src;
    for (;;) {
      const nl = src.indexOf("\n", this.pos);
      if (nl < 0) break;
      this.line(src.slice(this.pos, nl));
      this.pos = nl + 1;
    }
    return this.pieces(src.slice(this.pos));
  }

  private reset() {
    this.src = "";
    this.pos = 0;
    this.cur = "";
    this.curLines = 0;
    this.fence = null;
    this.blank = null;
    this.done = [];
  }

  /** Whether a blank line followed by next keeps the block open. */
  private continues(next: string): boolean {
    return indentedRe.test(next);
  }

  private line(line: string) {
    if (this.blank) {
      const b = this.blank;
      this.blank = null;
      if (this.continues(line)) this.push(b.line);
      else {
        this.done = b.ended;
        this.cur = "";
        this.curLines = 0;
      }
    }
    if (this.fence) {
      this.push(line);
      const m = fenceRe.exec(line);
      if (m && m[1] && m[1][0] === this.fence[0] && m[1].length >= this.fence.length && line.trim() === m[1]) this.fence = null;
      return;
    }
    const m = fenceRe.exec(line);
    if (m && m[1]) {
      this.fence = m[1];
      this.push(line);
      return;
    }
    if (line.trim() === "") {
      if (this.curLines > 0) this.blank = { line, ended: [...this.done, this.cur] };
      return;
    }
    this.push(line);
  }

  private push(line: string) {
    this.cur = this.curLines++ ? `${this.cur}\n${line}` : line;
  }

  /** The pieces with the unterminated last line (tail), as if the text ended there. */
  private pieces(tail: string): Pieces {
    const b = this.blank;
    if (b) {
      // The blank line ends cur unless the tail is an indented line.
      if (tail !== "" && this.continues(tail)) return { done: this.done, open: `${this.cur}\n${b.line}\n${tail}` };
      return { done: b.ended, open: tail.trim() === "" ? "" : tail };
    }
    if (this.fence === null && tail.trim() === "") return { done: this.done, open: this.cur };
    return { done: this.done, open: this.curLines ? `${this.cur}\n${tail}` : tail };
  }
}

/** splitBlocks of the whole text at once (finished message, tests). */
export function splitBlocks(src: string): string[] {
  const p = new BlockStream().update(src);
  return p.open ? [...p.done, p.open] : p.done;
}
