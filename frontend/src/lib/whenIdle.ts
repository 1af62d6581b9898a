/** When the browser has no requestIdleCallback: a slice of the main thread that leaves a frame room, in ms. */
const SLICE_MS = 4;

/** Runs work(timeLeft) when the main thread is idle (between frames where requestIdleCallback is missing); returns its cancel. */
export function whenIdle(work: (timeLeft: () => number) => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback((d) => work(() => d.timeRemaining()));
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(() => {
    const until = performance.now() + SLICE_MS;
    work(() => until - performance.now());
  }, 16);
  return () => window.clearTimeout(id);
}
