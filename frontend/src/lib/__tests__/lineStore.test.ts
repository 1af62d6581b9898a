import { describe, expect, it } from "vitest";
import { dropUtf8, LineStore, utf8Length } from "../lineStore";

const rows = (s: LineStore) => Array.from({ length: s.rows }, (_, i) => s.row(i));

describe("the output's lines", () => {
  it("joins a line cut across chunks and shows the unfinished last one", () => {
    const s = new LineStore();
    expect(s.append(0, "Serving HTTP on 127.")).toBe("appended");
    expect(rows(s)).toEqual(["Serving HTTP on 127."]);
    s.append(20, "0.0.1 port 8000\r\nGET /\n");
    expect(rows(s)).toEqual(["Serving HTTP on 127.0.0.1 port 8000", "GET /"]);
    expect(s.end).toBe(utf8Length("Serving HTTP on 127.0.0.1 port 8000\r\nGET /\n"));
  });

  it("places chunks by byte offset: what it holds is skipped, a gap is refused", () => {
    const s = new LineStore();
    s.reset(0, "héllo\n"); // 7 bytes: é is two
    expect(s.end).toBe(7);
    expect(s.append(0, "héllo\n")).toBe("held");
    // Overlapping: starts inside what is held, goes on past it.
    expect(s.append(3, "llo\nwörld\n")).toBe("appended");
    expect(rows(s)).toEqual(["héllo", "wörld"]);
    expect(s.append(s.end + 5, "later\n")).toBe("gap");
    expect(rows(s)).toEqual(["héllo", "wörld"]);
  });

  it("keeps a character cut between two chunks from eating the next chunk's start", () => {
    // "ab€cd\nef\n" with € (3 bytes) cut after its second byte: Go's JSON
    // sends each byte of the cut as U+FFFD (3 bytes), so the first chunk
    // reads as 8 bytes where it was 4.
    const s = new LineStore();
    s.append(0, "ab\uFFFD\uFFFD");
    s.append(4, "\uFFFDcd\n");
    s.append(8, "ef\n");
    expect(rows(s)).toEqual(["ab\uFFFD\uFFFD\uFFFDcd", "ef"]);
    expect(s.end).toBe(11);
    // A chunk sent twice is still held once.
    expect(s.append(8, "ef\n")).toBe("held");
  });

  it("ends a read where the job's byte count says", () => {
    const s = new LineStore();
    // The ring buffer's cut fell inside a character: its bytes read as U+FFFD.
    s.reset(10, "\uFFFDz\n", 13);
    expect(s.end).toBe(13);
    s.append(13, "next\n");
    expect(rows(s)).toEqual(["[… 10 bytes dropped …]", "\uFFFDz", "next"]);
  });

  it("holds at most its cap, dropping the oldest lines, and says how many bytes went", () => {
    const s = new LineStore(1000);
    let total = 0;
    for (let i = 0; i < 1000; i++) {
      const line = `line ${String(i).padStart(5, "0")}\n`;
      s.append(total, line);
      total += line.length;
    }
    expect(s.end).toBe(total);
    const held = total - s.start;
    expect(held).toBeLessThanOrEqual(1000);
    expect(s.isCut(0)).toBe(true);
    expect(s.row(0)).toBe(`[… ${s.start.toLocaleString("en-US")} bytes dropped …]`);
    // The rows after the cut are the last lines, whole, in order.
    expect(s.row(s.rows - 1)).toBe("line 00999");
    expect(s.rows - 1).toBe(held / 11);
    expect(s.base).toBe(s.start / 11 - 1);
  });

  it("keeps the end of one unfinished line longer than the cap", () => {
    const s = new LineStore(100);
    s.append(0, "y".repeat(250));
    expect(s.end).toBe(250);
    expect(s.row(s.rows - 1)).toBe("y".repeat(250 - s.start));
    expect(250 - s.start).toBeLessThanOrEqual(100);
  });

  it("counts UTF-8 bytes as Go does, and cuts them on character boundaries", () => {
    const enc = new TextEncoder();
    const alphabet = ["a", "é", "€", "😀", "\n", "z", "\u{10FFFF}", "ß"];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 500; k++) {
      let s = "";
      const n = rand(40);
      for (let i = 0; i < n; i++) s += alphabet[rand(alphabet.length)];
      expect(utf8Length(s)).toBe(enc.encode(s).length);
      const cut = rand(utf8Length(s) + 1);
      const rest = dropUtf8(s, cut);
      expect(s.endsWith(rest)).toBe(true);
      expect(utf8Length(s) - utf8Length(rest)).toBeGreaterThanOrEqual(cut);
      expect(utf8Length(s) - utf8Length(rest) - cut).toBeLessThan(4);
    }
  });
});
