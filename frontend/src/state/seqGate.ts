// Applies one session's events in sequence order. Events that arrive early
// wait in a buffer until the gap before them fills; a gap that stays open
// for gapMs (a coalesced or lost stream batch) is skipped. Duplicates and
// events older than the last applied one are dropped.

export interface Sequenced {
  payload: { seq: number };
}

export class SeqGate<E extends Sequenced> {
  private next: number | null = null;
  private buffer = new Map<number, E>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** With no known starting point, the first events wait settleMs for earlier ones. */
  private settling: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly apply: (events: E[]) => void,
    private readonly gapMs = 300,
    private readonly settleMs = 40,
  ) {}

  /** Starts over; lastApplied is the seq the snapshot already contains, when known. */
  reset(lastApplied: number | null): void {
    this.next = lastApplied === null ? null : lastApplied + 1;
    this.buffer.clear();
    this.clearTimer();
  }

  push(ev: E): void {
    const seq = ev.payload.seq;
    if (this.next === null) {
      // Unknown start: collect briefly, then begin at the lowest seq seen.
      if (!this.buffer.has(seq)) this.buffer.set(seq, ev);
      this.settling ??= setTimeout(() => {
        this.settling = null;
        if (this.buffer.size === 0) return;
        this.next = Math.min(...this.buffer.keys());
        this.drain();
      }, this.settleMs);
      return;
    }
    if (seq < this.next || this.buffer.has(seq)) return;
    this.buffer.set(seq, ev);
    this.drain();
  }

  dispose(): void {
    this.clearTimer();
    this.buffer.clear();
  }

  /** The number of events waiting for a gap to fill (for tests and debugging). */
  get waiting(): number {
    return this.buffer.size;
  }

  private drain(): void {
    const out: E[] = [];
    while (this.next !== null && this.buffer.has(this.next)) {
      out.push(this.buffer.get(this.next)!);
      this.buffer.delete(this.next);
      this.next++;
    }
    if (out.length) this.apply(out);
    if (this.buffer.size === 0) this.clearTimer();
    else if (!this.timer) this.timer = setTimeout(this.skipGap, this.gapMs);
  }

  private skipGap = (): void => {
    this.timer = null;
    if (this.buffer.size === 0) return;
    this.next = Math.min(...this.buffer.keys());
    this.drain();
  };

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.settling) clearTimeout(this.settling);
    this.timer = null;
    this.settling = null;
  }
}
