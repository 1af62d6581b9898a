// What every group of actions shares: the store, the backend, and the one
// way a failure outside any session reaches the window.
import type { Backend } from "../lib/backend";
import type { AppState } from "./appState";
import type { Store } from "./store";

export interface ActionContext {
  readonly store: Store<AppState>;
  readonly backend: Backend;
  /** Shows "what: reason" (or only the reason, already a sentence, when what is "") in the window's error banner, and logs it. */
  fail(what: string, err: unknown): void;
  /** Logs an error the window shows elsewhere (where: the view). */
  report(where: string, sessionId: number, message: string): void;
}
