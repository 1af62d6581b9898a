import { describe, expect, it } from "vitest";
import { BlockStream, splitBlocks } from "../blockStream";
import { renderInline, renderMarkdown, segmentClosed } from "../markdown";
import { isPlainParagraph, ParagraphStream, SEGMENT_MIN } from "../paragraphStream";

/** The split of the whole text at once, as the window did before it split incrementally. */
function splitAtOnce(src: string): string[] {
  const fenceRe = /^ {0,3}(`{3,}|~{3,})/;
  const lines = src.split("\n");
  const out: string[] = [];
  let cur: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const m = fenceRe.exec(line);
    if (fence) {
      cur.push(line);
      if (m && m[1] && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = null;
      continue;
    }
    if (m && m[1]) {
      fence = m[1];
      cur.push(line);
      continue;
    }
    if (line.trim() === "") {
      const next = lines[i + 1];
      if (next !== undefined && /^\s+\S/.test(next) && cur.length > 0) {
        cur.push(line);
        continue;
      }
      if (cur.length > 0) {
        out.push(cur.join("\n"));
        cur = [];
      }
      continue;
    }
    cur.push(line);
  }
  if (cur.length > 0) out.push(cur.join("\n"));
  return out;
}

const docs = [
  "# T\n\npara one\nline two\n\n```js\na\n\nb\n```\n\n- item\n\n  more of item\n\nend",
  "x\n\n```py\nprint(1)\n\nprint(2)",
  "a\n\n\n\nb\n \n  c\n\n~~~\n```\n~~~\n\n  \n\ttab\n\nlast line\n",
  "one\n\n  indented\n\n\n",
  "",
];

/** Random cut points, fixed seed. */
function cuts(n: number, seed: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(x);
  }
  return out;
}

describe("BlockStream", () => {
  it.each(docs)("splits every prefix of %j as the whole prefix split at once", (doc) => {
    for (const step of [1, 2, 3, 7]) {
      const s = new BlockStream();
      for (let end = 0; end <= doc.length; end += step) {
        const prefix = doc.slice(0, end);
        const p = s.update(prefix);
        expect(p.open ? [...p.done, p.open] : p.done).toEqual(splitAtOnce(prefix));
      }
      const p = s.update(doc);
      expect(p.open ? [...p.done, p.open] : p.done).toEqual(splitAtOnce(doc));
    }
  });

  it("keeps the finished blocks' array while only the open block grows", () => {
    const s = new BlockStream();
    const a = s.update("first\n\nsecond par");
    const b = s.update("first\n\nsecond paragraph goes on");
    expect(b.done).toBe(a.done);
    expect(b.open).toBe("second paragraph goes on");
  });

  it("starts over when the text is not a continuation", () => {
    const s = new BlockStream();
    s.update("a\n\nb");
    expect(splitBlocks("z\n\ny")).toEqual(["z", "y"]);
    const p = s.update("z\n\ny");
    expect([...p.done, p.open]).toEqual(["z", "y"]);
  });
});

const words = ["alpha", "beta", "*gamma*", "`code x`", "[link](http://e.com/a_b)", "snake_case", "**bold words**", "~~gone~~", "<b>tag</b>", "a < b", "plain"];

function paragraph(n: number, seed: number): string {
  return cuts(n, seed)
    .map((x) => words[x % words.length])
    .join(" ");
}


describe("ParagraphStream", () => {
  it("recognises plain paragraphs only", () => {
    expect(isPlainParagraph("just words\nand more words")).toBe(true);
    for (const src of ["# h", "words\n- item", "> quote", "1. one", "| a |", "    code", "text\n===", "<div>", "```js"]) {
      expect(isPlainParagraph(src)).toBe(false);
    }
  });

  it.each([1, 2, 3])("cuts a long paragraph into segments whose HTML is the paragraph's (seed %i)", (seed) => {
    const src = paragraph(3000, seed);
    const whole = renderMarkdown(src);
    const s = new ParagraphStream(segmentClosed);
    let last = { done: [] as string[], open: "" };
    for (const end of [...cuts(40, seed).map((x) => x % src.length).sort((a, b) => a - b), src.length]) {
      const p = s.update(src.slice(0, end));
      // Finished segments never change, and the pieces are the text.
      expect(p.done.slice(0, last.done.length)).toEqual(last.done);
      expect(p.done.join("") + p.open).toBe(src.slice(0, end));
      last = p;
    }
    expect(last.done.length).toBeGreaterThan(3);
    for (const seg of last.done) expect(seg.length).toBeGreaterThanOrEqual(SEGMENT_MIN);
    expect(`<p>${[...last.done, last.open].map(renderInline).join("")}</p>\n`).toBe(whole);
    // A stream fed at once cuts at the same places.
    const once = new ParagraphStream(segmentClosed).update(src);
    expect(once.done).toEqual(last.done);
  });

  it("never cuts inside a code span, a link or an open emphasis", () => {
    const long = "word ".repeat(SEGMENT_MIN / 5);
    for (const open of ["`code ", "[link ", "*emph ", "<span "]) {
      const p = new ParagraphStream(segmentClosed).update(`${open}${long}${long}x`);
      expect(p.done).toEqual([]);
    }
  });
});
