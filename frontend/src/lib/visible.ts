/**
 * Outside text (a project file's hook command, a server's name, the
 * model's command) shown with every character visible, as backend/cli/visible
 * does for the terminal (docs/ARCHITECTURE.md, "Outside text"): controls,
 * C1 controls, bidirectional controls, zero-width and other
 * default-ignorable characters, variation selectors, tags, noncharacters
 * and lone surrogates become parts of their own, which the Visible
 * component shows as badges. The same contexts as the Go package keep
 * what ordinary text needs (joiners between joining characters, one
 * variation selector after its base, an emoji flag's tags), so any script
 * and emoji is shown as it is.
 */

/** A run of text shown as it is, or one character shown as a badge. */
export type VisiblePart = { kind: "text"; text: string } | { kind: "hidden"; code: number; short: string; name: string };

const HIDDEN = /^[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\p{Noncharacter_Code_Point}\u2028\u2029]$/u;
const SELECTOR = /^\p{Variation_Selector}$/u;
const JOINS = /^[\p{L}\p{M}\p{So}\p{Sk}]$/u;
const MARK = /^\p{M}$/u;
const GRAPHIC = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const HAN = /^\p{Script=Han}$/u;
const MONGOLIAN = /^\p{Script=Mongolian}$/u;
const SPACE_OR_PUNCT = /^[\s\p{P}]$/u;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const MAX_TAGS = 7;

/** Short names and names of the characters people meet; the rest are U+XXXX. */
const NAMES: Record<number, [string, string]> = {
  0x00: ["NUL", "null"],
  0x07: ["BEL", "bell"],
  0x08: ["BS", "backspace"],
  0x09: ["TAB", "tab"],
  0x0a: ["LF", "line feed"],
  0x0b: ["VT", "vertical tab"],
  0x0c: ["FF", "form feed"],
  0x0d: ["CR", "carriage return"],
  0x1b: ["ESC", "escape"],
  0x7f: ["DEL", "delete"],
  0x85: ["NEL", "next line"],
  0x9b: ["CSI", "control sequence introducer"],
  0xad: ["SHY", "soft hyphen"],
  0x061c: ["ALM", "Arabic letter mark"],
  0x200b: ["ZWSP", "zero-width space"],
  0x200c: ["ZWNJ", "zero-width non-joiner"],
  0x200d: ["ZWJ", "zero-width joiner"],
  0x200e: ["LRM", "left-to-right mark"],
  0x200f: ["RLM", "right-to-left mark"],
  0x2028: ["LSEP", "line separator"],
  0x2029: ["PSEP", "paragraph separator"],
  0x202a: ["LRE", "left-to-right embedding"],
  0x202b: ["RLE", "right-to-left embedding"],
  0x202c: ["PDF", "pop directional formatting"],
  0x202d: ["LRO", "left-to-right override"],
  0x202e: ["RLO", "right-to-left override"],
  0x2060: ["WJ", "word joiner"],
  0x2066: ["LRI", "left-to-right isolate"],
  0x2067: ["RLI", "right-to-left isolate"],
  0x2068: ["FSI", "first strong isolate"],
  0x2069: ["PDI", "pop directional isolate"],
  0xfeff: ["ZWNBSP", "zero-width no-break space (byte order mark)"],
};

/** U+XXXX for a code point. */
function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

function hidden(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c < 0x7f) return c < 0x20;
  if (c <= 0x9f) return true;
  if (c < 0xad) return false;
  return HIDDEN.test(ch);
}

function joins(ch: string | undefined): boolean {
  return ch !== undefined && ch.codePointAt(0)! >= 0x80 && !hidden(ch) && JOINS.test(ch);
}

function selector(ch: string | undefined): boolean {
  return ch !== undefined && SELECTOR.test(ch);
}

/** Whether a ZWNJ or ZWJ between prev and next does the job of one. */
function joined(prev: string, next: string | undefined): boolean {
  if (selector(prev)) return joins(next);
  if (!joins(prev)) return false;
  if (joins(next)) return true;
  return MARK.test(prev) && (next === undefined || SPACE_OR_PUNCT.test(next));
}

/** Whether the variation selector vs may follow base. */
function selects(vs: string, base: string): boolean {
  const b = base.codePointAt(0)!;
  if (selector(base) || hidden(base) || !GRAPHIC.test(base)) return false;
  const v = vs.codePointAt(0)!;
  if (v === 0xfe0e || v === 0xfe0f) return b >= 0x80 || "#*0123456789".includes(base);
  if (v >= 0xfe00 && v <= 0xfe0d) return b >= 0x80;
  if (v >= 0xe0100) return HAN.test(base);
  return MONGOLIAN.test(base);
}

/** How many characters after a black flag are the tags that end a flag (0 when they are not). */
function flagTags(chars: string[], from: number): number {
  for (let n = 0; from + n < chars.length; n++) {
    const c = chars[from + n].codePointAt(0)!;
    if (c === CANCEL_TAG && n > 0) return n + 1;
    if (n >= MAX_TAGS || !((c >= 0xe0061 && c <= 0xe007a) || (c >= 0xe0030 && c <= 0xe0039))) return 0;
  }
  return 0;
}

/** The hidden part for ch. */
function hiddenPart(ch: string): VisiblePart {
  const code = ch.codePointAt(0)!;
  const [short, name] = NAMES[code] ?? [codePoint(code), "invisible or control character"];
  return { kind: "hidden", code, short, name: `${name}, ${codePoint(code)}` };
}

/**
 * s cut into text shown as it is and characters shown as badges; with
 * lines, line breaks and tabs are text (a block of several lines), else
 * they are badges too (one line, or a field the user decides on).
 */
export function visibleParts(s: string, lines = false): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let text = "";
  const plain = (t: string) => {
    text += t;
  };
  const badge = (ch: string) => {
    if (text) parts.push({ kind: "text", text });
    text = "";
    parts.push(hiddenPart(ch));
  };
  const chars = Array.from(s);
  let prev: string | undefined; // the last character, when shown as itself
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const c = ch.codePointAt(0)!;
    if (c === BLACK_FLAG) {
      const n = flagTags(chars, i + 1);
      plain(chars.slice(i, i + 1 + n).join(""));
      prev = chars[i + n];
      i += n;
      continue;
    }
    const shown =
      (lines && (ch === "\n" || ch === "\t")) ||
      !hidden(ch) ||
      ((c === ZWNJ || c === ZWJ) && prev !== undefined && joined(prev, chars[i + 1])) ||
      (selector(ch) && prev !== undefined && selects(ch, prev));
    if (shown) {
      plain(ch);
      prev = ch;
    } else {
      badge(ch);
      prev = undefined;
    }
  }
  if (text) parts.push({ kind: "text", text });
  return parts;
}

/** s as one string, each hidden character written ⟨NAME⟩: for labels and titles, where no badge can go. */
export function visibleString(s: string, lines = false): string {
  return visibleParts(s, lines)
    .map((p) => (p.kind === "text" ? p.text : `⟨${p.short}⟩`))
    .join("");
}
