// The inbox across sessions: every waiting decision of every live session,
// of every project, oldest first (App.Inbox). It is read again at each
// agent:approval and agent:approval_done of any session, and an approval
// ended anywhere (its session's card, the inbox) leaves it at once. The
// decisions go through the same calls as the session's own card, so both
// agree.
import { errorText } from "../lib/format";
import type { ApprovalMode, InboxItem, OpenSessionPayload } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import type { AppState } from "./appState";
import type { InboxState } from "./inboxState";
import { withSummary } from "./sessionList";


/**
 * The item to show once the list is `after`: the same one while it still
 * waits, else the first one after it in `before` that still waits (deciding
 * one moves to the next), else the last one, else none.
 */
export function nextAt(before: InboxItem[], at: string | null, after: InboxItem[]): string | null {
  const waits = new Set(after.map((x) => x.approval.id));
  if (at !== null && waits.has(at)) return at;
  const from = before.findIndex((x) => x.approval.id === at);
  if (from >= 0) for (const x of before.slice(from + 1)) if (waits.has(x.approval.id)) return x.approval.id;
  if (at === null) return after[0]?.approval.id ?? null;
  return after[after.length - 1]?.approval.id ?? null;
}

/** The item `delta` places from the one shown, kept within the list. */
export function moved(inbox: InboxState, delta: number): string | null {
  const { items, at } = inbox;
  if (!items.length) return null;
  const i = Math.max(0, items.findIndex((x) => x.approval.id === at));
  return items[Math.max(0, Math.min(items.length - 1, i + delta))]!.approval.id;
}

/** The item shown, if any. */
export function currentItem(st: AppState): InboxItem | null {
  return st.inbox.items.find((x) => x.approval.id === st.inbox.at) ?? null;
}

/** How many decisions wait across sessions (the sidebar's and the title's count). */
export const inboxCount = (st: AppState) => st.inbox.items.length;

export class InboxActions {
  /** The read under way, and whether another is due after it. */
  private reading: Promise<void> | null = null;
  private again = false;
  /** Approvals ended since the window started: a read begun before their end does not bring them back. */
  private ended = new Set<string>();
  /** Plans whose answer is on its way. */
  private answering = new Set<string>();

  constructor(
    private readonly ctx: ActionContext,
    private readonly openSession: (p: OpenSessionPayload) => Promise<void>,
  ) {}

  private set(update: (inbox: InboxState) => InboxState) {
    this.ctx.store.setState((st) => {
      const inbox = update(st.inbox);
      return inbox === st.inbox ? st : { ...st, inbox };
    });
  }

  private place(items: InboxItem[], error = "") {
    const waiting = items.filter((x) => !this.ended.has(x.approval.id));
    this.set((b) => ({ items: waiting, at: nextAt(b.items, b.at, waiting), error }));
  }

  /** Reads the list again: one read at a time, and one more when asked during it. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        try {
          this.place(await this.ctx.backend.inbox());
        } catch (err) {
          this.set((b) => ({ ...b, error: `Could not read the decisions waiting: ${errorText(err)}` }));
        }
      } while (this.again);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** An approval of some session ended (decided here or on its card, or withdrawn): it leaves the list now. */
  approvalEnded(approvalId: string) {
    this.ended.add(approvalId);
    const items = this.ctx.store.getState().inbox.items;
    if (items.some((x) => x.approval.id === approvalId)) this.place(items, this.ctx.store.getState().inbox.error);
    void this.refresh();
  }

  /**
   * A plan waits as long as its session's transcript says so (the backend
   * reads it): anything a session with a plan in the list does (a turn
   * starts, a message, its mode) reads the list again; so does a turn
   * ending with a plan.
   */
  sessionMoved(sessionId: number, planned = false) {
    if (planned || this.ctx.store.getState().inbox.items.some((x) => x.sessionId === sessionId && x.approval.kind === "plan")) void this.refresh();
  }

  /**
   * Answers a plan as its card does: approved into mode (the plan as
   * shown) to start the work, or planning goes on with the feedback.
   */
  async answerPlan(item: InboxItem, answer: { mode: ApprovalMode } | { feedback: string }): Promise<void> {
    const id = item.approval.id;
    if (this.answering.has(id)) return; // a second y while the first is on its way
    this.answering.add(id);
    try {
      if ("mode" in answer) {
        const sum = await this.ctx.backend.approvePlan(item.sessionId, answer.mode, item.reason);
        this.ctx.store.setState((st) => withSummary(st, sum));
      } else {
        await this.ctx.backend.sendMessage(item.sessionId, answer.feedback.trim(), []);
      }
      await this.refresh(); // it leaves once the backend says it no longer waits
    } catch (err) {
      this.set((b) => ({ ...b, error: `The plan was not answered: ${errorText(err)}` }));
    } finally {
      this.answering.delete(id);
    }
  }

  /** Shows the inbox at the oldest decision, or at `at` when given (a clicked notification). */
  open(at: string | null = null) {
    this.ctx.store.setState((st) => ({ ...st, dialog: "inbox", inbox: { ...st.inbox, at: at ?? st.inbox.items[0]?.approval.id ?? null } }));
    void this.refresh();
  }

  close() {
    this.ctx.store.setState((st) => (st.dialog === "inbox" ? { ...st, dialog: "none" } : st));
  }

  show(approvalId: string) {
    this.set((b) => (b.at === approvalId ? b : { ...b, at: approvalId }));
  }

  move(delta: number) {
    this.set((b) => {
      const at = moved(b, delta);
      return at === b.at ? b : { ...b, at };
    });
  }

  /** Opens the session of the item shown (its project first), leaving the inbox. */
  async enter(): Promise<void> {
    const item = currentItem(this.ctx.store.getState());
    if (!item) return;
    this.close();
    await this.openSession({ projectPath: item.projectPath, sessionId: item.sessionId });
  }
}
