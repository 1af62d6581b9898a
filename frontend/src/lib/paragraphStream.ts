// Cutting one long plain paragraph into inline segments (see blockStream.ts).
import type { Pieces } from "./blockStream";

/** A paragraph shorter than this is one piece; segments are at least this long. */
export const SEGMENT_MIN = 2048;
/** After a cut point that failed the check, the next one is tried this much later. */
const RETRY_AFTER = 512;

/** Lines that would start (or, after the first line, interrupt) something other than a paragraph. */
const blockStartRe = /^(?: {4}|\t| {0,3}(?:[#>*+=|<-]|\d{1,9}[.)]|`{3}|~{3}))/;

/** What may follow `<` in inline HTML or an autolink. */
const tagStartRe = /[A-Za-z/!?]/;
const wordRe = /[\p{L}\p{N}]/u;

/** Whether the character at i is between two letters or digits (an underscore there never opens or closes emphasis). */
function intraword(src: string, i: number): boolean {
  return i > 0 && wordRe.test(src[i - 1]!) && wordRe.test(src[i + 1] ?? "");
}

/** Whether a segment's rendered text still holds an emphasis delimiter that could pair with a later one. */
export function hasOpenDelimiter(text: string): boolean {
  return /[*~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/u.test(text);
}

/** Whether src is a plain paragraph: no line could start a heading, list, quote, table, HTML or code. */
export function isPlainParagraph(src: string): boolean {
  let at = 0;
  for (;;) {
    const nl = src.indexOf("\n", at);
    const line = src.slice(at, nl < 0 ? undefined : nl);
    if (blockStartRe.test(line) || line.trim() === "") return false;
    if (nl < 0) return true;
    at = nl + 1;
  }
}

/**
 * Splits a plain paragraph at spaces where no inline construct is open:
 * no code span, link bracket or angle bracket (inline HTML, autolink), and
 * every emphasis or strikethrough delimiter of the segment already matched
 * (check(segment) says so: the caller renders the segment alone and finds
 * no `*`, `_` or `~` left over). A cut point is a space followed by a
 * non-space, at least SEGMENT_MIN characters into the segment. Rendered
 * alone one after the other, the segments give the paragraph's inline HTML.
 */
export class ParagraphStream {
  private src = "";
  private start = 0; // where the open segment starts
  private scan = 0; // next character to look at
  private code = 0; // length of the backtick run that opened a code span, 0 outside
  private brackets = 0;
  private angle = false;
  private delims = false; // the open segment holds * _ or ~ outside code spans
  private nextTry = 0;
  private done: string[] = [];

  constructor(private readonly check: (segment: string) => boolean) {}

  update(src: string): Pieces {
    if (!src.startsWith(this.src)) this.reset();
    this.src = src;
    // The last character is kept back: a cut needs the character after it,
    // and a backtick run or an escape may go on in the next delta.
    const end = src.length - 1;
    let i = this.scan;
    while (i < end) {
      const ch = src[i]!;
      if (ch === "\\") {
        i += 2;
        continue;
      }
      if (ch === "`") {
        let j = i;
        while (j < src.length && src[j] === "`") j++;
        if (j >= end) break; // the run may continue
        const run = j - i;
        if (this.code === 0) this.code = run;
        else if (this.code === run) this.code = 0;
        i = j;
        continue;
      }
      if (this.code === 0) {
        if (ch === "[") this.brackets++;
        else if (ch === "]") this.brackets = Math.max(0, this.brackets - 1);
        else if (ch === "<" && tagStartRe.test(src[i + 1]!)) this.angle = true;
        else if (ch === ">") this.angle = false;
        else if (ch === "*" || ch === "~" || (ch === "_" && !intraword(src, i))) this.delims = true;
        else if (ch === " " && i + 1 - this.start >= SEGMENT_MIN && i + 1 >= this.nextTry) this.tryCut(i + 1);
      }
      i++;
    }
    this.scan = i;
    return { done: this.done, open: src.slice(this.start) };
  }

  private tryCut(at: number) {
    const next = this.src[at];
    if (next === undefined || next === " " || next === "\n" || this.brackets > 0 || this.angle) return;
    const seg = this.src.slice(this.start, at);
    if (this.delims && !this.check(seg)) {
      this.nextTry = at + RETRY_AFTER;
      return;
    }
    this.done = [...this.done, seg];
    this.start = at;
    this.delims = false;
  }

  private reset() {
    this.src = "";
    this.start = 0;
    this.scan = 0;
    this.code = 0;
    this.brackets = 0;
    this.angle = false;
    this.delims = false;
    this.nextTry = 0;
    this.done = [];
  }
}
