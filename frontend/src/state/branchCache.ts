// The worktree sessions' branches read ahead, so the Branch view shows at
// once: on a large repository GetBranch takes a few hundred milliseconds
// (git reads the whole worktree), so the window reads the branch when a
// worktree session's turn ends and when the session is opened, keeps the
// latest view of each, and the view paints that on the click while it reads
// the branch again. A merge names the version the user reviewed, and the
// backend refuses a branch changed since: the cache can only make the view
// older, never let a stale one be merged.
import type { Backend } from "../lib/backend";
import type { BranchView } from "../lib/wire.gen";
import type { AppState } from "./appState";

/** What the cache holds of a session's branch: none, a view (held), or a read under way. */
export type BranchCacheState = "none" | "reading" | "held";

interface Entry {
  /** The latest view read; null until the first read ends. */
  view: BranchView | null;
  /** The read under way (with the ones queued after it), resolving with the last view read. */
  reading: Promise<BranchView> | null;
  /** Something changed during the read under way: one more read follows it. */
  again: boolean;
}

/** One view per worktree session, dropped with the session's worktree or the project. */
export class BranchCache {
  private entries = new Map<number, Entry>();
  private listeners = new Set<() => void>();

  constructor(private readonly backend: Pick<Backend, "getBranch">) {}

  /** The latest view read of the session's branch, if any. */
  view(sessionId: number): BranchView | null {
    return this.entries.get(sessionId)?.view ?? null;
  }

  /** Whether a view is held, a read is under way, or neither. */
  state(sessionId: number): BranchCacheState {
    const e = this.entries.get(sessionId);
    if (!e) return "none";
    return e.reading ? "reading" : e.view ? "held" : "none";
  }

  /** Calls fn after every change of any entry; returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /**
   * Reads a worktree session's branch in the background because it may have
   * changed (its turn ended, it was opened): a read under way is followed by
   * one more, since it may have begun before the change. A session of
   * another project, or without a worktree, is left alone. A failure is not
   * shown here: the view reads again when opened and says why it could not.
   */
  readAhead(st: AppState, sessionId: number): void {
    const sum = st.session?.id === sessionId ? st.session.summary : st.sessions.find((x) => x.id === sessionId);
    if (!sum?.worktree || sum.worktreeDiscarded || sum.projectId !== st.project?.id) return;
    this.read(sessionId, true).catch(() => {});
  }

  /**
   * Reads the branch: joins a read under way (and the ones queued after it),
   * else starts one; again: the branch may have changed since the read
   * under way began, so one more follows it. Resolves with the last view read.
   */
  read(sessionId: number, again: boolean): Promise<BranchView> {
    let e = this.entries.get(sessionId);
    if (e?.reading) {
      if (again) e.again = true;
      return e.reading;
    }
    if (!e) {
      e = { view: null, reading: null, again: false };
      this.entries.set(sessionId, e);
    }
    const entry = e;
    const mine = () => this.entries.get(sessionId) === entry;
    entry.reading = (async () => {
      try {
        for (;;) {
          entry.again = false;
          const view = await this.backend.getBranch(sessionId);
          if (mine()) {
            entry.view = view;
            if (entry.again) this.notify();
          }
          if (!entry.again || !mine()) return view;
        }
      } catch (err) {
        // What the cache held may name a worktree that is gone: nothing is shown from it.
        entry.view = null;
        if (mine()) this.entries.delete(sessionId);
        throw err;
      } finally {
        entry.reading = null;
        this.notify();
      }
    })();
    this.notify();
    return entry.reading;
  }

  /** Forgets a session's branch (its worktree was discarded, or the session deleted). */
  drop(sessionId: number): void {
    if (this.entries.delete(sessionId)) this.notify();
  }

  /** Forgets every branch (another project was opened). */
  clear(): void {
    if (this.entries.size === 0) return;
    this.entries.clear();
    this.notify();
  }

  private notify() {
    for (const fn of this.listeners) fn();
  }
}
