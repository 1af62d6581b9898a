// The window as a desktop app: a folder handed over by a second launch
// (`pilot DIR`), a clicked notification, and the question asked before
// the window closes with work in flight.
import type { OpenProjectPayload, OpenSessionPayload } from "../lib/wire.gen";
import type { WorkInFlight } from "../lib/wire.gen";
import type { ActionContext } from "./actions";

export class DesktopActions {
  constructor(
    private readonly ctx: ActionContext,
    private readonly open: (path: string) => Promise<boolean>,
    private readonly show: (sessionId: number) => Promise<void>,
    private readonly showInbox: (approvalId: string) => void,
  ) {}

  /** A second launch opened a folder in the backend: show it (or say why not). */
  async openProject(p: OpenProjectPayload): Promise<void> {
    if (p.error) {
      this.ctx.fail("", p.error);
      return;
    }
    await this.open(p.path);
  }

  /** A notification was clicked: the inbox at its decision, or its project, then its session. */
  async openSession(p: OpenSessionPayload): Promise<void> {
    if (p.approvalId) {
      this.showInbox(p.approvalId);
      return;
    }
    const st = this.ctx.store.getState();
    if (st.project?.path !== p.projectPath && !(await this.open(p.projectPath))) return;
    await this.show(p.sessionId);
  }

  askQuit(work: WorkInFlight) {
    this.ctx.store.setState((st) => ({ ...st, quit: work }));
  }

  keepWorking() {
    this.ctx.store.setState((st) => ({ ...st, quit: null }));
  }

  async quit(): Promise<void> {
    try {
      await this.ctx.backend.quitNow();
    } catch (err) {
      this.ctx.store.setState((st) => ({ ...st, quit: null }));
      this.ctx.fail("Could not close the window", err);
    }
  }
}
