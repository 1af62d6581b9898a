import { describe, expect, it } from "vitest";
import { visibleParts, visibleString } from "../visible";

/** Characters never shown as themselves (backend/cli/visible's list), outside the contexts checked below. */
const NEVER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufffb\ufffe\uffff]|[\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]|[\ud800-\udfff]/u;

/** The text parts of s, and what was shown as badges, by code point. */
function shown(s: string, lines = false): { text: string; badges: string[] } {
  const parts = visibleParts(s, lines);
  return {
    text: parts.map((p) => (p.kind === "text" ? p.text : "\u0000")).join(""),
    badges: parts.flatMap((p) => (p.kind === "hidden" ? [p.short] : [])),
  };
}

/** Fails when the shown text holds a hidden character outside the contexts ordinary text needs. */
function checkShown(s: string, lines: boolean) {
  const parts = visibleParts(s, lines);
  // Nothing is lost: the parts put back together are the text.
  expect(parts.map((p) => (p.kind === "text" ? p.text : String.fromCodePoint(p.code))).join("")).toBe(s);
  for (const p of parts) {
    if (p.kind !== "text") continue;
    const chars = Array.from(p.text);
    chars.forEach((ch, i) => {
      const c = ch.codePointAt(0)!;
      const prev = chars[i - 1]?.codePointAt(0) ?? -1;
      const next = chars[i + 1]?.codePointAt(0) ?? -1;
      if (ch === "\n" || ch === "\t") return expect(lines).toBe(true);
      if (c === 0x200c || c === 0x200d) return expect(prev >= 0x80 && (next >= 0x80 || next === -1 || /[\s\p{P}]/u.test(chars[i + 1] ?? " "))).toBe(true);
      if (/\p{Variation_Selector}/u.test(ch)) return expect(prev >= 0x80 || "#*0123456789".includes(chars[i - 1] ?? "x")).toBe(true);
      if (c >= 0xe0020 && c <= 0xe007f) return; // an emoji flag's tags (the flag test checks them)
      expect(NEVER.test(ch), `${JSON.stringify(s)} shows U+${c.toString(16)} as itself`).toBe(false);
    });
  }
}

describe("visibleParts", () => {
  it("shows the red team's hook with its escape and carriage return as badges", () => {
    const { text, badges } = shown("REAL #\r\u001b[2K  PreToolUse: npm run lint --silent");
    expect(badges).toEqual(["CR", "ESC"]);
    expect(text).toBe("REAL #\u0000\u0000[2K  PreToolUse: npm run lint --silent");
  });

  it("names bidirectional and invisible characters, and the rest by code point", () => {
    expect(shown("a\u202eb\u2066c\u2069\u200bd\ufeff\u00ad\u061c").badges).toEqual(["RLO", "LRI", "PDI", "ZWSP", "ZWNBSP", "SHY", "ALM"]);
    expect(shown("hi\u{e0041}\u{e0042}").badges).toEqual(["U+E0041", "U+E0042"]);
    expect(shown("a\u3164b\u009b").badges).toEqual(["U+3164", "CSI"]);
    expect(shown("\ud800x").badges).toEqual(["U+D800"]);
    const [part] = visibleParts("\u202e").filter((p) => p.kind === "hidden");
    expect(part).toMatchObject({ name: "right-to-left override, U+202E" });
  });

  it("keeps line breaks and tabs in a block, and shows them in a line", () => {
    expect(shown("a\nb\tc", true).badges).toEqual([]);
    expect(shown("a\nb\tc").badges).toEqual(["LF", "TAB"]);
    expect(shown("a\r\n", true).badges).toEqual(["CR"]);
  });

  it("shows ordinary text of any script and emoji as it is", () => {
    for (const s of [
      "Grüße, Ελληνικά, русский, 中文, 日本語, 한국어, مرحبا, עברית",
      "می\u200cخواهم",
      "क्\u200dष ക്\u200d",
      "👩\u200d💻 👨\u200d👩\u200d👧\u200d👦 👍🏽 👩🏽\u200d🚀",
      "❤\ufe0f \u2764\ufe0f\u200d🔥 ☺\ufe0e 1\ufe0f\u20e3 🇫🇷",
      "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}",
      "葛\u{e0100}",
      `printf '%s\\n' C:\\dir\\`,
    ]) {
      expect(visibleParts(s, true)).toEqual([{ kind: "text", text: s }]);
      expect(visibleParts(s)).toEqual([{ kind: "text", text: s }]);
    }
  });

  it("shows joiners, selectors and tags that do no job of ordinary text", () => {
    expect(shown("r\u200dm").badges).toEqual(["ZWJ"]);
    expect(shown("a\ufe0f").badges).toEqual(["U+FE0F"]);
    expect(shown("\u2764\ufe0f\ufe0f").badges).toEqual(["U+FE0F"]);
    expect(shown("😀\u{e0100}\u{e0101}").badges).toEqual(["U+E0100", "U+E0101"]);
    expect(shown("🏴\u{e0067}\u{e0062}").badges).toEqual(["U+E0067", "U+E0062"]);
    expect(shown(`🏴${"\u{e0061}".repeat(8)}\u{e007f}`).badges).toHaveLength(9);
  });

  it("never shows a hidden character as itself, and loses nothing, on random text", () => {
    const alphabet = Array.from("ab \\/.#1é中مक्👩💻❤🏴\n\t\r\u001b\u0007\u007f\u009b\u00ad\u061c\u200b\u200c\u200d\u200e\u202e\u2066\u2069\u2060\ufeff\ufe0f\ufe0e\ufe00\u3164\u{e0067}\u{e0062}\u{e007f}\u{e0100}\u{e0041}\u180b\ud800");
    let seed = 36;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let n = 0; n < 3000; n++) {
      let s = "";
      const len = Math.floor(random() * 12);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      checkShown(s, false);
      checkShown(s, true);
    }
  });
});

describe("visibleString", () => {
  it("writes each hidden character as ⟨NAME⟩", () => {
    expect(visibleString("evil\u202e.com\u0007")).toBe("evil⟨RLO⟩.com⟨BEL⟩");
    expect(visibleString("a\nb", true)).toBe("a\nb");
  });
});
