// The geometry of a virtualised list (the review's hunks): each item's
// height, measured once it has been rendered and estimated until then; the
// offset of any item; which items meet a window of the scroll area.

export class HeightIndex {
  private readonly estimates: number[];
  /** The measured heights (NaN: not measured yet). */
  private readonly measured: number[];
  /** The sum of (measured − estimated) over the measured items, and their number. */
  private error = 0;
  private nMeasured = 0;
  /** tops[i] is the offset of item i; tops[count] the total. Rebuilt when dirty. */
  private tops: number[] = [];
  private dirty = true;

  constructor(count: number, estimate: (i: number) => number) {
    this.estimates = Array.from({ length: count }, (_, i) => estimate(i));
    this.measured = this.estimates.map(() => NaN);
  }

  get count(): number {
    return this.estimates.length;
  }

  /**
   * Records item i's rendered height; true when it changed. The items not
   * measured yet are estimated again with the estimates' mean error so far.
   */
  set(i: number, height: number): boolean {
    if (i < 0 || i >= this.estimates.length) return false;
    const was = this.measured[i]!;
    if (was === height) return false;
    if (Number.isNaN(was)) {
      this.nMeasured++;
      this.error += height - this.estimates[i]!;
    } else {
      this.error += height - was;
    }
    this.measured[i] = height;
    this.dirty = true;
    return true;
  }

  isMeasured(i: number): boolean {
    return !Number.isNaN(this.measured[i] ?? NaN);
  }

  height(i: number): number {
    const m = this.measured[i];
    if (m === undefined) return 0;
    if (!Number.isNaN(m)) return m;
    const correction = this.nMeasured ? Math.round(this.error / this.nMeasured) : 0;
    return Math.max(0, this.estimates[i]! + correction);
  }

  /** The distance from the list's top to item i's top (i = count: the total). */
  offset(i: number): number {
    const n = this.estimates.length;
    if (this.dirty) {
      this.tops = new Array<number>(n + 1);
      let at = 0;
      for (let k = 0; k < n; k++) {
        this.tops[k] = at;
        at += this.height(k);
      }
      this.tops[n] = at;
      this.dirty = false;
    }
    return this.tops[Math.max(0, Math.min(i, n))]!;
  }

  total(): number {
    return this.offset(this.estimates.length);
  }

  /** The item at a distance from the list's top (the last one past the end, the first before it). */
  at(y: number): number {
    let lo = 0;
    let hi = this.estimates.length - 1;
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
    const n = this.estimates.length;
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
