import { describe, expect, it } from "vitest";
import { HeightIndex } from "../virtualList";

describe("HeightIndex", () => {
  const tens = () => new HeightIndex(100, () => 10);
  /** 100 items of 10 px, all measured. */
  const measuredTens = () => {
    const h = tens();
    for (let i = 0; i < h.count; i++) h.set(i, 10);
    return h;
  };

  it("puts each item after the ones before it, estimated until measured", () => {
    const h = new HeightIndex(4, (i) => (i + 1) * 10);
    expect([0, 1, 2, 3, 4].map((i) => h.offset(i))).toEqual([0, 10, 30, 60, 100]);
    expect(h.total()).toBe(100);
    expect(h.isMeasured(1)).toBe(false);
    expect(h.set(1, 20)).toBe(true);
    expect(h.isMeasured(1)).toBe(true);
    expect([0, 1, 2, 3, 4].map((i) => h.offset(i))).toEqual([0, 10, 30, 60, 100]);
    expect(h.set(1, 20)).toBe(false);
    expect(h.set(7, 25)).toBe(false);
  });

  it("estimates the items not measured yet with the estimates' mean error", () => {
    const h = new HeightIndex(4, () => 10);
    h.set(0, 16); // 6 more than estimated
    expect([0, 1, 2, 3, 4].map((i) => h.offset(i))).toEqual([0, 16, 32, 48, 64]);
    h.set(1, 12); // 2 more: the mean error is 4
    expect([2, 3, 4].map((i) => h.offset(i))).toEqual([28, 42, 56]);
    h.set(1, 16); // measured again: the mean error is 6 again
    expect(h.total()).toBe(64);
    expect(h.height(3)).toBe(16);
  });

  it("finds the item at a distance", () => {
    const h = tens();
    expect(h.at(0)).toBe(0);
    expect(h.at(9.9)).toBe(0);
    expect(h.at(10)).toBe(1);
    expect(h.at(995)).toBe(99);
    expect(h.at(5000)).toBe(99);
  });

  const cases: { name: string; top: number; bottom: number; overscan: number; want: { first: number; last: number } | null }[] = [
    { name: "the items in view", top: 100, bottom: 200, overscan: 0, want: { first: 10, last: 19 } },
    { name: "a view cutting items in half", top: 105, bottom: 195, overscan: 0, want: { first: 10, last: 19 } },
    { name: "with overscan each side", top: 100, bottom: 200, overscan: 30, want: { first: 7, last: 22 } },
    { name: "clamped at the top", top: 0, bottom: 50, overscan: 30, want: { first: 0, last: 7 } },
    { name: "clamped at the end", top: 950, bottom: 1050, overscan: 30, want: { first: 92, last: 99 } },
    { name: "a view above the list", top: -500, bottom: -100, overscan: 30, want: null },
    { name: "a view below the list", top: 1100, bottom: 1300, overscan: 30, want: null },
    { name: "a view partly above the list", top: -100, bottom: 25, overscan: 0, want: { first: 0, last: 2 } },
  ];
  for (const c of cases) {
    it(`range: ${c.name}`, () => {
      expect(tens().range(c.top, c.bottom, c.overscan)).toEqual(c.want);
    });
  }

  it("has no range in an empty list", () => {
    expect(new HeightIndex(0, () => 10).range(0, 100, 10)).toBeNull();
  });

  it("follows measured heights in its range", () => {
    const h = measuredTens();
    h.set(0, 500); // item 0 now fills the first 500 px
    expect(h.range(100, 200, 0)).toEqual({ first: 0, last: 0 });
    expect(h.range(500, 520, 0)).toEqual({ first: 1, last: 2 });
  });

  // The list starts 300 px into the scrolled content; the view is 100 px high.
  const reveals: { name: string; item: number; scrollTop: number; want: number }[] = [
    { name: "an item in view does not move it", item: 2, scrollTop: 300, want: 300 },
    { name: "an item below comes in at the bottom", item: 20, scrollTop: 300, want: 300 + 210 - 100 },
    { name: "an item above comes in at the top", item: 5, scrollTop: 700, want: 350 },
    { name: "an item half out at the bottom", item: 9, scrollTop: 300, want: 300 },
    { name: "an item half out at the top", item: 9, scrollTop: 395, want: 390 },
  ];
  for (const c of reveals) {
    it(`reveal: ${c.name}`, () => {
      expect(tens().reveal(c.item, 300, c.scrollTop, 100)).toBe(c.want);
    });
  }

  it("reveals the top of an item higher than the view", () => {
    const h = measuredTens();
    h.set(4, 400);
    expect(h.reveal(4, 0, 0, 100)).toBe(40);
    expect(h.reveal(4, 0, 500, 100)).toBe(40);
  });
});
