import { describe, expect, it } from "vitest";
import { changedSpan, chooseLayout, markRange, rowCount, rowsBodyOf, rowsHtml, SPLIT_CHARS, splitRows, unifiedRows } from "../diffLayout";
import type { Hunk } from "../wire.gen";

const hunk: Hunk = {
  index: 0,
  oldStart: 1,
  oldLines: 3,
  newStart: 1,
  newLines: 4,
  lines: [
    { kind: "context", text: "package main", oldNo: 1, newNo: 1 },
    { kind: "del", text: "func a() int { return 1 }", oldNo: 2 },
    { kind: "add", text: "func a() int { return 2 }", newNo: 2 },
    { kind: "add", text: "// added", newNo: 3 },
    { kind: "context", text: "}", oldNo: 3, newNo: 4 },
  ],
};

describe("changedSpan", () => {
  it("finds the differing middle", () => {
    expect(changedSpan("return 1 }", "return 22 }")).toEqual({ a: [7, 8], b: [7, 9] });
    expect(changedSpan("same", "same")).toBeNull();
  });
});

describe("markRange", () => {
  it("wraps plain text", () => {
    expect(markRange("abcdef", 2, 4)).toBe('ab<mark class="intra">cd</mark>ef');
  });
  it("stays well nested across tags and counts entities as one character", () => {
    const html = '<span class="k">if</span> a &lt; b';
    expect(markRange(html, 1, 6)).toBe(
      '<span class="k">i<mark class="intra">f</mark></span><mark class="intra"> a &lt;</mark> b',
    );
  });
});

describe("rows", () => {
  it("pairs a deleted line with the added line after it and marks the change", () => {
    const rows = splitRows(hunk, "");
    expect(rows).toHaveLength(4);
    expect(rows[1]!.left).toMatchObject({ no: 2, kind: "del" });
    expect(rows[1]!.right).toMatchObject({ no: 2, kind: "add" });
    expect(rows[1]!.left.html).toContain('<mark class="intra">1</mark>');
    expect(rows[1]!.right.html).toContain('<mark class="intra">2</mark>');
    expect(rows[2]!.left.kind).toBe("empty");
    expect(rows[2]!.right).toMatchObject({ no: 3, kind: "add", html: "// added" });
  });
  it("keeps the hunk's order in the unified view", () => {
    const rows = unifiedRows(hunk, "go");
    expect(rows.map((r) => r.kind)).toEqual(["context", "del", "add", "add", "context"]);
    expect(rows[0]!.html).toContain('<span class="hljs-keyword">package</span>');
  });
});

describe("chooseLayout", () => {
  it("is side by side when two columns of 80 characters fit, unified below", () => {
    expect(SPLIT_CHARS).toBe(80);
    expect(chooseLayout(2 * 80 * 7.2, 7.2)).toBe("split");
    expect(chooseLayout(1400, 7.2)).toBe("split");
    expect(chooseLayout(2 * 80 * 7.2 - 1, 7.2)).toBe("unified");
    expect(chooseLayout(760, 7.2)).toBe("unified");
    // A smaller font fits more.
    expect(chooseLayout(1000, 6)).toBe("split");
  });
});

describe("rowCount and rowsHtml", () => {
  it("counts the rows each layout renders, as rowsHtml renders them", () => {
    expect(rowCount(hunk, "split")).toBe(splitRows(hunk, "").length);
    expect(rowCount(hunk, "split")).toBe(4);
    expect(rowCount(hunk, "unified")).toBe(unifiedRows(hunk, "").length);
    expect(rowCount(hunk, "unified")).toBe(5);
    expect(rowsHtml(hunk, "", "split").split("<tr>")).toHaveLength(4 + 1);
    expect(rowsHtml(hunk, "", "unified").split("<tr>")).toHaveLength(5 + 1);
  });

  it("keeps a hunk's rows per layout and language", () => {
    const a = rowsBodyOf(hunk, "", "split");
    expect(rowsBodyOf(hunk, "", "split")).toBe(a);
    expect(a.innerHTML).toBe(rowsHtml(hunk, "", "split"));
    expect(rowsBodyOf(hunk, "", "unified").innerHTML).toBe(rowsHtml(hunk, "", "unified"));
    expect(rowsBodyOf(hunk, "go", "split").innerHTML).toBe(rowsHtml(hunk, "go", "split"));
  });
});
