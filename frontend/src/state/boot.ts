// The window's start, before React renders anything: the controller's
// listeners are in place and the first calls go out as soon as the entry
// module has run, so the first call (FrontendReady) does not wait for the
// shell's first render (issue 42).
import type { Backend } from "../lib/backend";
import { errorText } from "../lib/format";
import type { AppReadyPayload } from "../lib/wire.gen";
import { AppController } from "./controller";

/** FrontendReady's answer, or why Pilot could not open its data. */
export type ReadyResult = { ok: AppReadyPayload } | { error: string };

export interface Boot {
  controller: AppController;
  /** Never rejects: a failure is the error's sentence. */
  ready: Promise<ReadyResult>;
  /**
   * The window holds the controller while it is mounted: the returned
   * function stops its listeners; holding it again starts them again (as
   * StrictMode's second mount in development does).
   */
  hold(): () => void;
}

/**
 * Makes the first call, then starts the controller (its event listeners,
 * the first loads) in the same task: an event the call causes is
 * dispatched in a later task, once the listeners are in place.
 */
export function boot(backend: Backend): Boot {
  const ready = backend.frontendReady().then(
    (ok): ReadyResult => ({ ok }),
    (err: unknown): ReadyResult => ({ error: errorText(err) }),
  );
  const controller = new AppController(backend);
  let stop: (() => void) | null = controller.start();
  const hold = () => {
    stop ??= controller.start();
    return () => {
      stop?.();
      stop = null;
    };
  };
  return { controller, ready, hold };
}
