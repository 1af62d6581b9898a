import { describe, expect, it, vi } from "vitest";
import { act, render } from "@testing-library/react";
import { throttleFrom, useAdaptiveText } from "../useAdaptiveText";

function Probe({ text, renders }: { text: string; renders: string[] }) {
  const shown = useAdaptiveText(text);
  renders.push(shown);
  return <p>{shown.length}</p>;
}

describe("useAdaptiveText", () => {
  it("follows short text at once", () => {
    const renders: string[] = [];
    const { rerender, container } = render(<Probe text="a" renders={renders} />);
    rerender(<Probe text="ab" renders={renders} />);
    expect(container.textContent).toBe("2");
  });

  it("renders long streaming text at most every 50 ms and always ends on the latest", () => {
    vi.useFakeTimers();
    try {
      const base = "x".repeat(throttleFrom);
      const renders: string[] = [];
      const { rerender, container } = render(<Probe text={base} renders={renders} />);
      for (let i = 1; i <= 20; i++) {
        act(() => {
          rerender(<Probe text={base + "y".repeat(i)} renders={renders} />);
          vi.advanceTimersByTime(5);
        });
      }
      // 20 updates 5 ms apart: 100 ms of streaming shows only a few states.
      const distinct = new Set(renders.map((r) => r.length));
      expect(distinct.size).toBeLessThanOrEqual(4);
      act(() => vi.advanceTimersByTime(100));
      expect(container.textContent).toBe(String(throttleFrom + 20));
    } finally {
      vi.useRealTimers();
    }
  });
});
