// A background job's output as the Jobs panel holds it: lines, the last
// one possibly unfinished, placed by byte offset in the job's whole output
// (Go counts bytes; JavaScript strings count UTF-16 units), capped like the
// backend's ring buffer with the cut at the front.

/** The most output one job's line store holds (bytes), as the backend's ring buffer. */
export const JOB_OUTPUT_CAP = 1 << 20;

/**
 * The UTF-8 bytes of the character at s[i]: 4 only for a surrogate pair
 * (two UTF-16 units); a lone surrogate counts as U+FFFD's 3.
 */
function utf8Bytes(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) return 4;
  return 3;
}

/** The UTF-8 length of s (what Go counts as the output's bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const b = utf8Bytes(s, i);
    n += b;
    i += b === 4 ? 2 : 1;
  }
  return n;
}

/** s without its first `bytes` UTF-8 bytes (a character they cut into is dropped whole). */
export function dropUtf8(s: string, bytes: number): string {
  let n = 0;
  let i = 0;
  while (i < s.length && n < bytes) {
    const b = utf8Bytes(s, i);
    n += b;
    i += b === 4 ? 2 : 1;
  }
  return s.slice(i);
}

/** What append did with a chunk. */
export type AppendResult = "appended" | "held" | "gap";

/**
 * The lines of one job's output. Appending costs the chunk's length; the
 * oldest lines are dropped once more than cap bytes are held, and
 * the rows start with a line saying how much was dropped.
 */
export class LineStore {
  private lines: string[] = [];
  /** The first line of `lines` still held (older ones are dropped; compacted now and then). */
  private head = 0;
  /** The last line, not ended by a newline yet. */
  private tail = "";
  /** Bytes held (of lines and tail, newlines included). */
  private held = 0;
  /** The offset of the first byte held in the job's whole output: what came before it was dropped. */
  start = 0;
  /** The offset just past the last byte held: where the next chunk belongs. */
  end = 0;
  /** Lines dropped from the front since the last reset. */
  private dropped = 0;
  /** The offset of the last chunk appended, and whether it held U+FFFD (see append). */
  private lastOffset = -1;
  private fuzzy = false;

  constructor(private readonly cap = JOB_OUTPUT_CAP) {}

  /** Rows to show: the dropped-output line (when some was), every line, the unfinished last one. */
  get rows(): number {
    return (this.start > 0 ? 1 : 0) + this.lines.length - this.head + (this.tail ? 1 : 0);
  }

  /** Row i of rows (the text of a line, without its newline or a carriage return before it). */
  row(i: number): string {
    if (this.start > 0) {
      if (i === 0) return `[… ${this.start.toLocaleString("en-US")} bytes dropped …]`;
      i--;
    }
    const at = this.head + i;
    const line = at < this.lines.length ? this.lines[at]! : at === this.lines.length ? this.tail : "";
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }

  /**
   * A number for row 0 that moves with the lines: when old lines are
   * dropped it grows by as many rows as went (a view keeps its place by it,
   * and uses base + i as row i's key).
   */
  get base(): number {
    return this.dropped - (this.start > 0 ? 1 : 0);
  }

  /** Row i is the dropped-output line. */
  isCut(i: number): boolean {
    return this.start > 0 && i === 0;
  }

  /**
   * Holds text, the output from offset start on (what JobOutput returned),
   * instead of anything held; end is where it ends in the whole output
   * (the job's byte count), when known.
   */
  reset(start: number, text: string, end?: number): void {
    this.lines = [];
    this.head = 0;
    this.tail = "";
    this.held = 0;
    this.dropped = 0;
    this.start = start;
    this.end = start;
    const bytes = utf8Length(text);
    this.add(text, end !== undefined && end >= start ? end - start : bytes);
    this.lastOffset = start;
    this.fuzzy = false;
  }

  /**
   * Adds a chunk that starts at offset in the job's whole output: the part
   * already held is skipped ("held" when all of it is); a chunk beyond the
   * end leaves a gap and is not added ("gap": read the output again).
   */
  append(offset: number, chunk: string): AppendResult {
    if (this.fuzzy && offset > this.lastOffset && offset < this.end) {
      // The last chunk held U+FFFD: bytes that were no UTF-8 (a character
      // cut between chunks) reach here as three bytes each, so it was
      // counted long. This chunk follows it: it ends where this one starts.
      this.held -= this.end - offset;
      this.end = offset;
    }
    if (offset > this.end) return "gap";
    const bytes = utf8Length(chunk);
    if (offset + bytes <= this.end) return "held";
    if (offset < this.end) {
      const skip = this.end - offset;
      chunk = dropUtf8(chunk, skip);
      this.add(chunk, offset + bytes - this.end);
    } else this.add(chunk, bytes);
    this.lastOffset = offset;
    this.fuzzy = chunk.includes("\uFFFD");
    return "appended";
  }

  private add(text: string, bytes: number): void {
    if (!text) return;
    this.end += bytes;
    this.held += bytes;
    let from = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", from)) {
      this.lines.push(this.tail + text.slice(from, nl));
      this.tail = "";
      from = nl + 1;
    }
    this.tail += text.slice(from);
    if (this.held > this.cap) this.trim();
  }

  /** Drops the oldest lines until a tenth of the cap is free (so that trimming is rare). */
  private trim(): void {
    const keep = this.cap - (this.cap >> 3);
    while (this.held > keep && this.head < this.lines.length) {
      const gone = utf8Length(this.lines[this.head]!) + 1;
      this.head++;
      this.dropped++;
      this.held -= gone;
      this.start += gone;
    }
    if (this.held > keep) {
      // One unfinished line longer than the cap: keep its end.
      const cut = this.held - keep;
      this.tail = dropUtf8(this.tail, cut);
      const left = utf8Length(this.tail);
      this.start += this.held - left;
      this.held = left;
    }
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }
}
