import { errorText } from "../lib/format";
import type { ActionContext } from "./actions";
import type { AppState } from "./appState";
import { viewRoot } from "./viewRoot";

/**
 * Reads the git state of the folder the open session works in (its
 * worktree, or the project folder; state/viewRoot.ts) for the header:
 * when it changes, after a turn, a change applied, on focus. One read at
 * a time, one more after it when asked again meanwhile; a read of a
 * folder no longer shown is dropped.
 */
export class GitStatusReader {
  private read: Promise<void> | null = null;
  private again = false;

  constructor(private readonly ctx: ActionContext) {}

  refresh(): void {
    if (this.read) {
      this.again = true;
      return;
    }
    const st0 = this.ctx.store.getState();
    const project = st0.project;
    if (!project) return;
    const root = viewRoot(st0);
    // A read asked for again meanwhile is stale (its folder may have
    // changed and back): the next read's answer is shown instead.
    const same = (st: AppState) => !this.again && st.project?.id === project.id && viewRoot(st).key === root.key;
    this.read = this.ctx.backend
      .gitStatus(project.id, root.sessionId)
      .then((git) => this.ctx.store.setState((st) => (same(st) ? { ...st, git } : st)))
      .catch((err: unknown) => {
        const why = `Could not read the git status: ${errorText(err)}`;
        this.ctx.report("window", 0, why);
        this.ctx.store.setState((st) => (same(st) ? { ...st, git: { repo: false, branch: "", uncommitted: 0, why } } : st));
      })
      .finally(() => {
        this.read = null;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }
}
