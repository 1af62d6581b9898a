// How many tokens a session has used, as every part of the window shows
// it: the open session's live count (agent:usage, during a turn too), else
// the count stored with the session.
import type { Usage } from "../lib/wire.gen";
import type { AppState } from "./appState";

/** All the tokens of one usage report. */
export function usageTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** The tokens of session id: live when it is the open session and has reported usage, else stored. */
export function sessionTokens(s: AppState, id: number, stored: number): number {
  const u = s.session?.id === id ? s.session.usage : null;
  return u ? usageTokens(u) : stored;
}
