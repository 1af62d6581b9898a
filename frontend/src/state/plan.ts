// Plan mode and the session's mode: switching it (the mode control,
// Shift+Tab), approving a presented plan into edits or ask, and keeping
// on planning with feedback.
import { errorText } from "../lib/format";
import type { ApprovalMode, SessionSummary } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import type { AppState, Prompt } from "./appState";
import { withSummary } from "./sessionList";

export const MODES: readonly ApprovalMode[] = ["ask", "edits", "all", "none", "plan"];

/** What Shift+Tab cycles through (all and none only from the menu: they are not everyday switches). */
export const CYCLE: readonly ApprovalMode[] = ["ask", "edits", "plan"];

/** The modes a plan can be approved into. */
export const WORK_MODES: readonly ApprovalMode[] = ["edits", "ask"];

export function toMode(s: string | undefined): ApprovalMode {
  return MODES.find((m) => m === s) ?? "ask";
}

/** The mode Shift+Tab moves to from mode. */
export function nextMode(mode: ApprovalMode): ApprovalMode {
  const i = CYCLE.indexOf(mode);
  return CYCLE[(i + 1) % CYCLE.length]!;
}

export class PlanActions {
  /** The mode each session had before it entered plan mode, to approve a plan back into. */
  private before: Record<number, ApprovalMode> = {};

  constructor(
    private readonly ctx: ActionContext,
    /** Starts a session when the mode is chosen with none open. */
    private readonly newSession: () => Promise<number | null>,
    private readonly submit: (p: Prompt) => Promise<void>,
    /** A session's mode was set: a plan of it may wait, or no longer (the inbox). */
    private readonly modeSet: (sessionId: number) => void = () => {},
  ) {}

  private get state(): AppState {
    return this.ctx.store.getState();
  }

  /** The open session's mode. */
  mode(): ApprovalMode {
    return toMode(this.state.session?.summary?.approvalMode);
  }

  /** The mode a plan of this session is approved into unless the user picks another. */
  workMode(sessionId: number): ApprovalMode {
    const m = this.before[sessionId];
    return m && WORK_MODES.includes(m) ? m : "ask";
  }

  private applySummary(sum: SessionSummary) {
    this.ctx.store.setState((st) => withSummary(st, sum));
  }

  /** Sets the open session's mode (starting a session when none is open). */
  async setMode(mode: ApprovalMode): Promise<void> {
    let id = this.state.session?.id ?? null;
    if (id === null) id = await this.newSession();
    if (id === null) return;
    const prev = this.mode();
    if (prev === mode) return;
    if (mode === "plan") this.before[id] = prev;
    try {
      this.applySummary(await this.ctx.backend.setSessionMode(id, mode));
      this.modeSet(id);
    } catch (err) {
      this.ctx.fail("Could not change the mode", err);
    }
  }

  /** Shift+Tab: ask → edits → plan → ask. */
  cycle(): Promise<void> {
    return this.setMode(nextMode(this.mode()));
  }

  /** Approves the plan (as the user left it) into mode and starts the work. */
  async approve(mode: ApprovalMode, plan: string): Promise<void> {
    const s = this.state.session;
    if (!s || s.turn !== "idle") return;
    const id = s.id;
    const patch = (f: (x: NonNullable<AppState["session"]>) => NonNullable<AppState["session"]>) =>
      this.ctx.store.setState((st) => (st.session && st.session.id === id ? { ...st, session: f(st.session) } : st));
    patch((x) => ({ ...x, turn: "sending", error: null }));
    try {
      const sum = await this.ctx.backend.approvePlan(id, mode, plan);
      this.applySummary(sum);
      patch((x) => (x.turn === "sending" ? { ...x, turn: "running" } : x));
    } catch (err) {
      const message = `The plan was not approved: ${errorText(err)}`;
      patch((x) => ({ ...x, turn: "idle", error: { kind: "plan", message, retryable: false } }));
      this.ctx.report("chat", id, message);
    }
  }

  /** Keep planning: the feedback goes to the model as the next message, still in plan mode. */
  keepPlanning(feedback: string): Promise<void> {
    return this.submit({ text: feedback.trim(), attachments: [] });
  }
}
