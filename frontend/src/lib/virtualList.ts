// The geometry of a virtualised list (the review's hunks): each item's
// height, measured once it has been rendered and estimated until then; the
// offset of any item; which items meet a window of the scroll area.

export class HeightIndex {
  private readonly heights: number[];
  private readonly measured: boolean[];
  /** tops[i] is the offset of item i; tops[count] the total. Rebuilt when dirty. */
  private tops: number[] = [];
  private dirty = true;

  constructor(count: number, estimate: (i: number) => number) {
    this.heights = Array.from({ length: count }, (_, i) => estimate(i));
    this.measured = this.heights.map(() => false);
  }

  get count(): number {
    return this.heights.length;
  }

  /** Records item i's rendered height; true when it changed. */
  set(i: number, height: number): boolean {
    if (i < 0 || i >= this.heights.length) return false;
    this.measured[i] = true;
    if (this.heights[i] === height) return false;
    this.heights[i] = height;
    this.dirty = true;
    return true;
  }

  isMeasured(i: number): boolean {
    return this.measured[i] ?? false;
  }

  height(i: number): number {
    return this.heights[i] ?? 0;
  }

  /** The distance from the list's top to item i's top (i = count: the total). */
  offset(i: number): number {
    if (this.dirty) {
      this.tops = new Array<number>(this.heights.length + 1);
      let at = 0;
      for (let k = 0; k < this.heights.length; k++) {
        this.tops[k] = at;
        at += this.heights[k]!;
      }
      this.tops[this.heights.length] = at;
      this.dirty = false;
    }
    return this.tops[Math.max(0, Math.min(i, this.heights.length))]!;
  }

  total(): number {
    return this.offset(this.heights.length);
  }

  /** The item at a distance from the list's top (the last one past the end, the first before it). */
  at(y: number): number {
    let lo = 0;
    let hi = this.heights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offset(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  /**
   * The items [first, last] that meet [top - overscan, bottom + overscan)
   * (distances from the list's top); null when none does (an empty list, or
   * a window wholly above or below it).
   */
  range(top: number, bottom: number, overscan: number): { first: number; last: number } | null {
    const n = this.heights.length;
    const from = top - overscan;
    const to = bottom + overscan;
    if (n === 0 || to <= 0 || from >= this.total()) return null;
    const first = this.at(Math.max(0, from));
    let last = this.at(to);
    if (this.offset(last) >= to && last > first) last--;
    return { first, last };
  }

  /**
   * The scrollTop that brings item i wholly into a view of viewHeight px
   * that now starts at scrollTop, moving as little as possible (as
   * scrollIntoView's "nearest"); listTop is the list's offset in the
   * scrolled content.
   */
  reveal(i: number, listTop: number, scrollTop: number, viewHeight: number): number {
    const top = listTop + this.offset(i);
    const bottom = top + this.height(i);
    if (top < scrollTop || bottom - top > viewHeight) return top;
    if (bottom > scrollTop + viewHeight) return bottom - viewHeight;
    return scrollTop;
  }
}
