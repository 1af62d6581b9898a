// The page-side stamps of the window's benchmarks (bench-scale.mjs and the
// diff renderers' comparison, frontend/bench/diffpeers/run.mjs): the same
// two helpers stamp Pilot and every other renderer.

/** Frames over this gap (two frames at 60 Hz) are counted as dropped. */
export const LONG_FRAME_MS = 34;

/**
 * In the page: runs act (a function body), then resolves with the wall-clock
 * stamp t0 taken just before it and `at`, the stamp of the frame after the
 * first frame in which found(arg) held: by then that frame has been laid out
 * and painted (the requestAnimationFrame after it starts the next frame).
 */
export function frameWhen(page, act, found, arg) {
  return page.evaluate(
    ({ act, found, arg }) =>
      new Promise((resolve, reject) => {
        const now = () => performance.timeOrigin + performance.now();
        const test = new Function("arg", `return (${found})(arg)`);
        const t0 = now();
        new Function(act)();
        const tick = () => {
          if (test(arg)) requestAnimationFrame(() => resolve({ t0, at: now() }));
          else if (now() - t0 > 60_000) reject(new Error(`not found after 60 s: ${found}`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { act, found: found.toString(), arg },
  );
}

/** For frameWhen: whether an element matching selector shows on screen (laid out, inside the viewport). */
export function onScreen(selector) {
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.height > 0 && r.width > 0 && r.bottom > 0 && r.top < innerHeight) return true;
  }
  return false;
}

/**
 * In the page: scrolls the element matching selector from its top to its
 * end, step px a frame (dir -1: from its end up to its top, until nothing
 * older is read there); returns the frames, the longest gap between two,
 * and how many were over LONG_FRAME_MS. An element whose scrolling is not
 * its own (Monaco's) carries an object with scrollTop, scrollHeight and
 * clientHeight as its benchScroller.
 */
export function scrollThrough(page, selector, step, dir = 1) {
  return page.evaluate(
    ({ selector, step, dir, long }) =>
      new Promise((resolve) => {
        const found = document.querySelector(selector);
        const el = found.benchScroller ?? found;
        el.scrollTop = dir > 0 ? 0 : el.scrollHeight;
        const frames = [];
        let settled = 0;
        const tick = (t) => {
          frames.push(t);
          const end =
            dir > 0
              ? el.scrollTop + el.clientHeight >= el.scrollHeight - 1
              : el.scrollTop <= 0 && !document.querySelector("[data-testid=transcript-older]");
          // At the end for a few frames (row heights measured on the way may grow it).
          settled = end ? settled + 1 : 0;
          if (settled >= 5) {
            let max = 0;
            let over = 0;
            for (let k = 1; k < frames.length; k++) {
              const gap = frames[k] - frames[k - 1];
              max = Math.max(max, gap);
              if (gap > long) over++;
            }
            resolve({ frames: frames.length, max, over, height: el.scrollHeight });
            return;
          }
          el.scrollTop += dir * step;
          requestAnimationFrame(tick);
        };
        // Start after the jump has been painted.
        requestAnimationFrame(() => requestAnimationFrame(tick));
      }),
    { selector, step, dir, long: LONG_FRAME_MS },
  );
}
