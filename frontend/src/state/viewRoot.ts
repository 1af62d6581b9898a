import type { AppState } from "./appState";

/**
 * The folder the file tree, the @ picker, file previews and the header's
 * git badge show: the open session's worktree for a worktree session,
 * else the project folder. The backend resolves it from the session it is
 * named (0: the project folder), so a session of the project folder is
 * named 0 and every view of one folder asks alike.
 */
export interface ViewRoot {
  /** The session to name to the backend: a worktree session, or 0 for the project folder. */
  sessionId: number;
  /** Changes exactly when the folder shown changes ("folder", or "worktree:" and its path). */
  key: string;
  /** pilot/NAME for a worktree ("" for the project folder). */
  branch: string;
  /** The worktree's folder ("" for the project folder). */
  worktree: string;
  /** The open session worked in a worktree that was discarded: the project folder is shown. */
  discarded: boolean;
}

/** The open session's summary: its own, or the session list's while it loads. */
function openSummary(st: AppState) {
  const s = st.session;
  if (!s) return null;
  return s.summary ?? st.sessions.find((x) => x.id === s.id) ?? null;
}

export function viewRoot(st: AppState): ViewRoot {
  const sum = openSummary(st);
  if (sum?.worktree && !sum.worktreeDiscarded)
    return { sessionId: sum.id, key: `worktree:${sum.worktree}`, branch: sum.branch ?? "", worktree: sum.worktree, discarded: false };
  return { sessionId: 0, key: "folder", branch: "", worktree: "", discarded: !!sum?.worktreeDiscarded };
}
