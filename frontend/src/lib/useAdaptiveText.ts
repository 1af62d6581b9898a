import { useEffect, useLayoutEffect, useRef, useState } from "react";

/** Below this many characters every change is rendered at once. */
export const throttleFrom = 16_384;

/**
 * Returns text as it should be rendered now. Short text follows every
 * change. Long text (a big answer still streaming, re-parsed as a whole)
 * is rendered at most every max(50 ms, twice the last render's cost), so
 * the main thread stays mostly free for scrolling and typing; the latest
 * text is always rendered in the end.
 */
export function useAdaptiveText(text: string): string {
  const [shown, setShown] = useState(text);
  const last = useRef({ at: 0, cost: 0, started: 0 });

  useLayoutEffect(() => {
    const l = last.current;
    if (l.started) {
      l.cost = performance.now() - l.started;
      l.started = 0;
    }
  }, [shown]);

  useEffect(() => {
    if (text === shown) return;
    const l = last.current;
    const commit = () => {
      l.at = performance.now();
      l.started = l.at;
      setShown(text);
    };
    if (text.length < throttleFrom) {
      commit();
      return;
    }
    const wait = Math.max(50, 2 * l.cost) - (performance.now() - l.at);
    if (wait <= 0) {
      commit();
      return;
    }
    const t = setTimeout(commit, wait);
    return () => clearTimeout(t);
  }, [text, shown]);

  return text.length < throttleFrom ? text : shown;
}
