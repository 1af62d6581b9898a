// Parts of the window the first paint does not show (the chat, Settings,
// diffs, the file tree, the Branch view, the Jobs panel, the inbox) load
// when they are first shown, so the bundle the window parses before its
// first call is the shell alone. Once the window has painted and is idle
// they are loaded one at a time (prefetchWhenIdle), so that a later first
// open does not wait for them.
import { createElement, lazy, useEffect, type ComponentType } from "react";
import { useReportError } from "./useReportError";

/** Every later part's load, in the order their modules declared them (a part's own later parts join once it loads). */
const loads: (() => Promise<unknown>)[] = [];
const loading: Promise<unknown>[] = [];

/**
 * A component whose module loads when it is first rendered (it suspends
 * until then: render it inside <Suspense>), and renders directly once
 * loaded. A module that cannot be loaded shows why over the window, with
 * Reload, instead of an empty place. Under test every such module starts
 * loading at once; see allLoaded.
 */
export function later<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const once = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = undefined; // a prefetch that failed does not stop a later open from trying again
        throw err;
      },
    ));
  const Lazy = lazy(() => once().catch((err: unknown) => ({ default: failed<P>(err) })));
  loads.push(once);
  if (import.meta.env.MODE === "test") loading.push(once().catch(() => undefined)); // a part that fails shows it when rendered
  function Later(props: P) {
    return createElement(loaded ?? Lazy, props);
  }
  return Later;
}

/** What a part that could not be loaded shows in its place. */
function failed<P>(err: unknown): ComponentType<P> {
  const message = `Pilot could not load this part of the window (${err instanceof Error ? err.message : String(err)}). Reload the window to try again; if it fails again, reinstall Pilot.`;
  return function LoadFailed() {
    useReportError("window", message);
    return createElement(
      "div",
      { className: "app-error", role: "alert", "data-testid": "error-banner", "data-kind": "load" },
      createElement("span", { className: "error-text" }, message),
      createElement("button", { type: "button", className: "small", onClick: () => window.location.reload() }, "Reload"),
    );
  };
}

/**
 * Loads every later part not loaded yet, one per idle moment, starting
 * after the next frame has been painted; parts that loading one declares
 * are loaded too. A part that fails is left for its first open to try.
 */
export function usePrefetchWhenIdle(start: boolean) {
  useEffect(() => {
    if (!start) return;
    let stopped = false;
    let done = 0;
    // WebKitGTK may have no requestIdleCallback: a short timeout then.
    const idle = (f: () => void) => (typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(f, { timeout: 2000 }) : window.setTimeout(f, 50));
    const next = () => {
      if (stopped || done >= loads.length) return;
      const load = loads[done++];
      void load().then(
        () => idle(next),
        () => idle(next),
      );
    };
    // After the frame the first paint is in: requestAnimationFrame runs before it, the timeout after.
    const frame = window.requestAnimationFrame(() => window.setTimeout(() => idle(next), 0));
    return () => {
      stopped = true;
      window.cancelAnimationFrame(frame);
    };
  }, [start]);
}

/** For tests: resolves once every later part, and those their modules declare, is loaded. */
export async function allLoaded(): Promise<void> {
  for (let done = 0; done < loading.length; ) {
    const batch = loading.slice(done);
    done = loading.length;
    await Promise.all(batch);
  }
}
