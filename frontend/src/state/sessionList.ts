// The project's session list: pages of it, newest first, and what the
// sidebar does to one session (rename, delete, fork, export).
import type { ExportFormat } from "../lib/backend";
import type { SessionSummary } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import { sortSessions, type AppState } from "./appState";

/** Sessions fetched per page. */
export const SESSION_PAGE = 200;

/** Adds sessions to a list, each id once, newest first. */
export function mergeSessions(list: SessionSummary[], more: SessionSummary[]): SessionSummary[] {
  const ids = new Set(more.map((s) => s.id));
  return sortSessions([...more, ...list.filter((s) => !ids.has(s.id))]);
}

/** The state with a session's new summary (a mode or model changed): in the list of its project, and in the open session when it is that one. */
export function withSummary(st: AppState, sum: SessionSummary): AppState {
  return {
    ...st,
    sessions: st.project && st.project.id === sum.projectId ? mergeSessions(st.sessions, [sum]) : st.sessions,
    session: st.session && st.session.id === sum.id ? { ...st.session, summary: sum } : st.session,
  };
}

/** Whether s was updated after the copy of it in page (an event came while the page was read). */
function newerThan(s: SessionSummary, page: SessionSummary[]): boolean {
  const p = page.find((x) => x.id === s.id);
  return p !== undefined && s.updatedAt > p.updatedAt;
}

export class SessionListActions {
  constructor(
    private readonly ctx: ActionContext,
    /** Opens a session in the chat (a fork opens the new one). */
    private readonly open: (id: number) => Promise<void>,
    /** Forgets what the window kept of a deleted session (its draft, its place). */
    private readonly forget: (id: number) => void = () => {},
  ) {}

  private get state() {
    return this.ctx.store.getState();
  }

  private set: ActionContext["store"]["setState"] = (u) => this.ctx.store.setState(u);

  /** Loads the first page of the open project's sessions. */
  async load(): Promise<void> {
    await this.fetch(true);
  }

  /**
   * Loads the next page. The list mirrors the top of the store's order (new
   * and updated sessions arrive as session:updated and move to the top there
   * too), so its length is the offset of the next page.
   */
  async loadMore(): Promise<void> {
    const st = this.state;
    if (!st.sessionsMore || st.sessionsStatus === "loading") return;
    await this.fetch(false);
  }

  private async fetch(first: boolean): Promise<void> {
    const project = this.state.project;
    if (!project) return;
    const offset = first ? 0 : this.state.sessions.length;
    // Sessions that come while the page is read (one the user starts, one
    // updated meanwhile) may be missing from it or older there: the newer
    // copy is kept.
    const known = new Set(this.state.sessions.map((s) => s.id));
    this.set((st) => ({ ...st, sessionsStatus: "loading" }));
    try {
      const page = await this.ctx.backend.listSessions(project.id, SESSION_PAGE, offset);
      if (this.state.project?.id !== project.id) return;
      this.set((st) => ({
        ...st,
        sessions: first ? mergeSessions(page, st.sessions.filter((s) => !known.has(s.id) || newerThan(s, page))) : mergeSessions(st.sessions, page),
        sessionsStatus: "ready",
        sessionsMore: page.length === SESSION_PAGE,
      }));
    } catch (err) {
      this.set((st) => ({ ...st, sessionsStatus: "failed" }));
      this.ctx.fail("Could not list sessions", err);
    }
  }

  async rename(id: number, title: string): Promise<void> {
    const t = title.trim();
    if (!t) return;
    try {
      await this.ctx.backend.renameSession(id, t);
      this.set((st) => ({
        ...st,
        sessions: st.sessions.map((x) => (x.id === id ? { ...x, title: t } : x)),
        session: st.session?.id === id && st.session.summary ? { ...st.session, summary: { ...st.session.summary, title: t } } : st.session,
      }));
    } catch (err) {
      this.ctx.fail("Could not rename the session", err);
    }
  }

  async remove(id: number): Promise<void> {
    try {
      await this.ctx.backend.deleteSession(id);
      this.set((st) => {
        const live = { ...st.live };
        delete live[id];
        return { ...st, live, sessions: st.sessions.filter((x) => x.id !== id), session: st.session?.id === id ? null : st.session };
      });
      this.forget(id);
    } catch (err) {
      this.ctx.fail("Could not delete the session", err);
    }
  }

  /** Forks the open session from one of its messages and opens the fork. */
  async fork(messageId: number): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    try {
      const sum = await this.ctx.backend.forkSession(s.id, messageId);
      this.set((st) => ({ ...st, sessions: mergeSessions(st.sessions, [sum]) }));
      await this.open(sum.id);
    } catch (err) {
      this.ctx.fail("Could not fork the session", err);
    }
  }

  /** Saves an export through the native dialog; "" when cancelled or failed. */
  async exportTo(id: number, format: ExportFormat): Promise<string> {
    try {
      return await this.ctx.backend.saveSessionExport(id, format);
    } catch (err) {
      this.ctx.fail("Could not export the session", err);
      return "";
    }
  }
}
