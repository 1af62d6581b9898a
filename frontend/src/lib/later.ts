// Parts of the window the first paint does not show (the chat, Settings,
// diffs, the file tree) load when they are first shown, so the bundle the
// window parses before its first call is the shell alone.
import { createElement, lazy, type ComponentType } from "react";

const loading: Promise<unknown>[] = [];

/**
 * A component whose module loads when it is first rendered (it suspends
 * until then: render it inside <Suspense>), and renders directly once
 * loaded. Under test every such module starts loading at once; see
 * allLoaded.
 */
export function later<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  const once = () =>
    load().then((m) => {
      loaded = m.default;
      return m;
    });
  const Lazy = lazy(once);
  if (import.meta.env.MODE === "test") loading.push(once());
  function Later(props: P) {
    return createElement(loaded ?? Lazy, props);
  }
  return Later;
}

/** For tests: resolves once every later part, and those their modules declare, is loaded. */
export async function allLoaded(): Promise<void> {
  for (let done = 0; done < loading.length; ) {
    const batch = loading.slice(done);
    done = loading.length;
    await Promise.all(batch);
  }
}
