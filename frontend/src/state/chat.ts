// The chat: sending a prompt (or queueing it while a turn runs), retry,
// Stop and compaction of the open session.
import { errorText } from "../lib/format";
import type { ActionContext } from "./actions";
import type { AppState, Prompt } from "./appState";
import type { SessionView } from "./sessionState";

export class ChatActions {
  constructor(
    private readonly ctx: ActionContext,
    /** Starts a session (and opens it) when a prompt is sent with none open. */
    private readonly newSession: () => Promise<number | null>,
  ) {}

  private get state(): AppState {
    return this.ctx.store.getState();
  }

  /** Sends now, or queues when a turn runs. Creates a session when none is open. */
  async submitPrompt(prompt: Prompt): Promise<void> {
    let s = this.state.session;
    if (!s) {
      if ((await this.newSession()) === null) return;
      s = this.state.session;
      if (!s) return;
    }
    if (s.turn !== "idle") {
      const sid = s.id;
      this.ctx.store.setState((st) => ({ ...st, queued: { ...st.queued, [sid]: prompt } }));
      return;
    }
    await this.send(s.id, prompt);
  }

  /** Takes back the prompt queued for a session (to edit it, or on Stop). */
  unqueue(sessionId: number): Prompt | null {
    const q = this.state.queued[sessionId] ?? null;
    this.ctx.store.setState((st) => {
      if (!(sessionId in st.queued)) return st;
      const queued = { ...st.queued };
      delete queued[sessionId];
      return { ...st, queued };
    });
    return q;
  }

  /** Called when a turn ends: sends what was typed meanwhile. */
  sendQueued(sessionId: number) {
    const q = this.unqueue(sessionId);
    if (q) void this.send(sessionId, q);
  }

  private patchSession(id: number, patch: (s: SessionView) => SessionView) {
    this.ctx.store.setState((st) => (st.session && st.session.id === id ? { ...st, session: patch(st.session) } : st));
  }

  private async send(sessionId: number, prompt: Prompt): Promise<void> {
    this.ctx.store.setState((st) => ({ ...st, lastPrompt: { ...st.lastPrompt, [sessionId]: prompt } }));
    this.patchSession(sessionId, (s) => ({ ...s, turn: "sending", error: null }));
    try {
      await this.ctx.backend.sendMessage(sessionId, prompt.text, prompt.attachments, prompt.images ?? []);
      this.patchSession(sessionId, (s) => (s.turn === "sending" ? { ...s, turn: "running" } : s));
    } catch (err) {
      this.showSendError(sessionId, `The message was not sent: ${errorText(err)}`);
    }
  }

  private showSendError(sessionId: number, message: string) {
    this.patchSession(sessionId, (s) => ({ ...s, turn: "idle", error: { kind: "send", message, retryable: true } }));
    this.ctx.report("chat", sessionId, message);
  }

  /**
   * Retry: a message that never reached the backend is sent again; a turn
   * that failed is run again from where it failed, so the user's message is
   * never added twice.
   */
  async retry(): Promise<void> {
    const s = this.state.session;
    if (!s || s.turn !== "idle") return;
    if (s.error?.kind === "send") {
      const prompt = this.state.lastPrompt[s.id] ?? lastUserPrompt(s);
      if (prompt) await this.send(s.id, prompt);
      return;
    }
    const sessionId = s.id;
    this.patchSession(sessionId, (x) => ({ ...x, turn: "sending", error: null }));
    try {
      await this.ctx.backend.retryTurn(sessionId);
      this.patchSession(sessionId, (x) => (x.turn === "sending" ? { ...x, turn: "running" } : x));
    } catch (err) {
      this.patchSession(sessionId, (x) => ({
        ...x,
        turn: "idle",
        error: { kind: "retry", message: `Could not retry: ${errorText(err)}`, retryable: false },
      }));
      this.ctx.report("chat", sessionId, `Could not retry: ${errorText(err)}`);
    }
  }

  async cancel(): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    this.unqueue(s.id);
    try {
      await this.ctx.backend.cancelTurn(s.id);
    } catch (err) {
      this.ctx.fail("Could not stop the turn", err);
    }
  }

  async compact(): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    try {
      await this.ctx.backend.compactNow(s.id);
    } catch (err) {
      this.ctx.fail("", err); // the backend's sentences say what failed and what to do
    }
  }
}

/** The text of the session's last user message (Up recall after a restart). */
export function lastUserPrompt(s: SessionView): Prompt | null {
  for (let i = s.messageIds.length - 1; i >= 0; i--) {
    const m = s.messages[s.messageIds[i]!];
    if (m?.role !== "user") continue;
    // A slash command is recalled as typed, not as its expansion.
    const text = m.blocks.filter((b) => b.type === "text").map((b) => b.command ?? b.text ?? "").join("\n");
    if (text) return { text, attachments: [] };
  }
  return null;
}
