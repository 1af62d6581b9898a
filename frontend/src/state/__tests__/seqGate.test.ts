import { afterEach, describe, expect, it, vi } from "vitest";
import { SeqGate } from "../seqGate";

type E = { payload: { seq: number }; v: string };
const ev = (seq: number, v = String(seq)): E => ({ payload: { seq }, v });

afterEach(() => vi.useRealTimers());

describe("SeqGate", () => {
  it("applies out-of-order events in order and drops duplicates and old ones", () => {
    const got: string[] = [];
    const g = new SeqGate<E>((evs) => got.push(...evs.map((e) => e.v)));
    g.reset(0);
    g.push(ev(2));
    g.push(ev(3));
    expect(got).toEqual([]);
    expect(g.waiting).toBe(2);
    g.push(ev(1));
    expect(got).toEqual(["1", "2", "3"]);
    g.push(ev(2, "dup"));
    g.push(ev(3, "dup"));
    g.push(ev(4));
    g.push(ev(4, "dup"));
    expect(got).toEqual(["1", "2", "3", "4"]);
  });

  it("starts from the snapshot's seq", () => {
    const got: number[] = [];
    const g = new SeqGate<E>((evs) => got.push(...evs.map((e) => e.payload.seq)));
    g.reset(10);
    g.push(ev(9));
    g.push(ev(10));
    g.push(ev(11));
    expect(got).toEqual([11]);
  });

  it("skips a gap that stays open", () => {
    vi.useFakeTimers();
    const got: number[] = [];
    const g = new SeqGate<E>((evs) => got.push(...evs.map((e) => e.payload.seq)), 100);
    g.reset(0);
    g.push(ev(1));
    g.push(ev(3));
    g.push(ev(4));
    expect(got).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(got).toEqual([1, 3, 4]);
    g.push(ev(2));
    expect(got).toEqual([1, 3, 4]);
  });

  it("without a known start, waits briefly and begins at the lowest seq", () => {
    vi.useFakeTimers();
    const got: number[] = [];
    const g = new SeqGate<E>((evs) => got.push(...evs.map((e) => e.payload.seq)), 100, 40);
    g.reset(null);
    g.push(ev(6));
    g.push(ev(5));
    expect(got).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(got).toEqual([5, 6]);
    g.push(ev(4));
    g.push(ev(7));
    expect(got).toEqual([5, 6, 7]);
  });
});
