// The window's actions: every call to the backend and every event goes
// through here and lands in the store.
import type { Backend, ExportFormat } from "../lib/backend";
import type { EventMap } from "../lib/events";
import { errorText } from "../lib/format";
import type { Approval, SettingsInput, SettingsView } from "../lib/types";
import { initialState, sortProjects, sortSessions, type AppState, type PanelTab, type Prompt, type Dialog } from "./appState";
import { buildDecision, loadingReview, readyReview, type DecisionMode, type ReviewState } from "./review";
import { SeqGate } from "./seqGate";
import { applyEvent, emptySession, sessionFromDetail, type SessionEvent } from "./sessionState";
import { Store } from "./store";

const PAGE = 200;

export class AppController {
  readonly store = new Store<AppState>(initialState);
  private gate = new SeqGate<SessionEvent>((evs) => this.applyBatch(evs));
  /** Events of the session being loaded wait here until its snapshot arrives. */
  private held: SessionEvent[] | null = null;
  private openToken = 0;
  private loaded = false;

  constructor(readonly backend: Backend) {}

  get state(): AppState {
    return this.store.getState();
  }

  private set(update: (s: AppState) => AppState) {
    this.store.setState(update);
  }

  /** Subscribes to backend events and loads the first data; returns the unsubscribe. */
  start(): () => void {
    const b = this.backend;
    const offs = [
      b.on("agent:state", (payload) => this.route({ name: "agent:state", payload })),
      b.on("agent:stream", (payload) => this.route({ name: "agent:stream", payload })),
      b.on("agent:message", (payload) => this.route({ name: "agent:message", payload })),
      b.on("agent:tool", (payload) => this.route({ name: "agent:tool", payload })),
      b.on("agent:tool_output", (payload) => this.route({ name: "agent:tool_output", payload })),
      b.on("agent:approval", (payload) => this.route({ name: "agent:approval", payload })),
      b.on("agent:approval_done", (payload) => this.route({ name: "agent:approval_done", payload })),
      b.on("agent:usage", (payload) => this.route({ name: "agent:usage", payload })),
      b.on("agent:notice", (payload) => this.route({ name: "agent:notice", payload })),
      b.on("agent:error", (payload) => this.route({ name: "agent:error", payload })),
      b.on("agent:turn_done", (payload) => this.route({ name: "agent:turn_done", payload })),
      b.on("session:updated", (p) => this.onSessionUpdated(p)),
    ];
    if (!this.loaded) {
      this.loaded = true;
      void this.loadSettings();
      void this.loadProjects();
    }
    return () => {
      for (const off of offs) off();
      this.gate.dispose();
    };
  }

  // ---- events -------------------------------------------------------

  private route(ev: SessionEvent) {
    const s = this.state.session;
    if (!s || ev.payload.sessionId !== s.id) return; // not the open session
    if (this.held) this.held.push(ev);
    else this.gate.push(ev);
  }

  private applyBatch(evs: SessionEvent[]) {
    const sid = this.state.session?.id;
    this.set((st) => {
      if (!st.session || st.session.id !== sid) return st;
      let session = st.session;
      for (const ev of evs) session = applyEvent(session, ev);
      return { ...st, session };
    });
    for (const ev of evs) this.afterEvent(ev);
  }

  private afterEvent(ev: SessionEvent) {
    switch (ev.name) {
      case "agent:approval":
        this.onApproval(ev.payload.approval);
        break;
      case "agent:approval_done": {
        const { approvalId, outcome } = ev.payload;
        this.set((st) => {
          const reviews = { ...st.reviews };
          delete reviews[approvalId];
          const changed = outcome === "approved" || outcome === "partial" || outcome === "edited";
          return { ...st, reviews, filesVersion: changed ? st.filesVersion + 1 : st.filesVersion };
        });
        break;
      }
      case "agent:turn_done":
        this.sendQueued(ev.payload.sessionId);
        break;
      default:
    }
  }

  private onApproval(a: Approval) {
    this.set((st) => ({ ...st, panelTab: "review" }));
    if (a.kind === "change") void this.loadChange(a.id);
  }

  private onSessionUpdated(p: EventMap["session:updated"]) {
    const sum = p.session;
    this.set((st) => {
      const inProject = st.project && sum.projectId === st.project.id;
      const sessions = inProject ? sortSessions([sum, ...st.sessions.filter((x) => x.id !== sum.id)]) : st.sessions;
      const session = st.session && st.session.id === sum.id ? { ...st.session, summary: sum } : st.session;
      return { ...st, sessions, session };
    });
  }

  // ---- settings -----------------------------------------------------

  async loadSettings(): Promise<void> {
    this.set((st) => ({ ...st, settingsStatus: "loading" }));
    try {
      const settings = await this.backend.getSettings();
      this.set((st) => ({ ...st, settings, settingsStatus: "ready" }));
    } catch (err) {
      this.set((st) => ({ ...st, settingsStatus: "failed", appError: `Could not read the settings: ${errorText(err)}` }));
    }
  }

  async saveSettings(input: SettingsInput): Promise<SettingsView> {
    const settings = await this.backend.saveSettings(input);
    this.set((st) => ({ ...st, settings, settingsStatus: "ready" }));
    return settings;
  }

  setDialog(dialog: Dialog) {
    this.set((st) => ({ ...st, dialog }));
  }

  setPanelTab(panelTab: PanelTab) {
    this.set((st) => ({ ...st, panelTab }));
  }

  dismissAppError() {
    this.set((st) => ({ ...st, appError: null }));
  }

  private fail(what: string, err: unknown) {
    this.set((st) => ({ ...st, appError: `${what}: ${errorText(err)}` }));
  }

  // ---- projects -----------------------------------------------------

  async loadProjects(): Promise<void> {
    try {
      const projects = sortProjects(await this.backend.listProjects());
      this.set((st) => ({ ...st, projects }));
      if (!this.state.project && projects[0]) await this.openProject(projects[0].path);
    } catch (err) {
      this.fail("Could not list projects", err);
    }
  }

  async pickProject(): Promise<void> {
    try {
      const path = await this.backend.pickProjectFolder();
      if (path) await this.openProject(path);
    } catch (err) {
      this.fail("Could not open the folder picker", err);
    }
  }

  async openProject(path: string): Promise<boolean> {
    try {
      const project = await this.backend.openProject(path.trim());
      this.gate.reset(null);
      this.set((st) => ({
        ...st,
        project,
        projects: sortProjects([project, ...st.projects.filter((p) => p.id !== project.id)]),
        sessions: [],
        sessionsStatus: "loading",
        session: null,
        reviews: {},
        filesVersion: st.filesVersion + 1,
        appError: null,
      }));
      await this.loadSessions();
      return true;
    } catch (err) {
      this.fail(`Could not open ${path}`, err);
      return false;
    }
  }

  // ---- sessions -----------------------------------------------------

  async loadSessions(): Promise<void> {
    const project = this.state.project;
    if (!project) return;
    try {
      const list = await this.backend.listSessions(project.id, PAGE, 0);
      if (this.state.project?.id !== project.id) return;
      this.set((st) => ({ ...st, sessions: sortSessions(list), sessionsStatus: "ready" }));
    } catch (err) {
      this.set((st) => ({ ...st, sessionsStatus: "failed" }));
      this.fail("Could not list sessions", err);
    }
  }

  async newSession(): Promise<number | null> {
    const project = this.state.project;
    if (!project) return null;
    try {
      const sum = await this.backend.newSession(project.id);
      this.set((st) => ({ ...st, sessions: sortSessions([sum, ...st.sessions.filter((x) => x.id !== sum.id)]) }));
      // Where the new session's seq starts is the backend's business: settle on the first events.
      this.gate.reset(null);
      this.held = null;
      this.openToken++;
      this.set((st) => ({ ...st, session: { ...emptySession(sum.id, sum), status: "ready" }, reviews: {} }));
      return sum.id;
    } catch (err) {
      this.fail("Could not start a session", err);
      return null;
    }
  }

  async openSession(id: number, focusMessageId: number | null = null): Promise<void> {
    const token = ++this.openToken;
    const cur = this.state.session;
    if (cur && cur.id === id && cur.status === "ready") {
      if (focusMessageId !== null) this.set((st) => (st.session ? { ...st, session: { ...st.session, focusMessageId } } : st));
      return;
    }
    const summary = this.state.sessions.find((x) => x.id === id) ?? null;
    this.held = [];
    this.gate.reset(null);
    this.set((st) => ({ ...st, session: emptySession(id, summary), reviews: {} }));
    try {
      const detail = await this.backend.getSession(id);
      if (token !== this.openToken) return;
      const held = this.held ?? [];
      this.held = null;
      // The snapshot holds every event up to detail.seq: the gate applies only later ones.
      this.gate.reset(detail.seq);
      this.set((st) => ({ ...st, session: sessionFromDetail(detail, focusMessageId) }));
      for (const a of detail.pending) if (a.kind === "change") void this.loadChange(a.id);
      if (detail.pending.length) this.setPanelTab("review");
      for (const ev of held.sort((a, b) => a.payload.seq - b.payload.seq)) this.gate.push(ev);
    } catch (err) {
      if (token !== this.openToken) return;
      this.held = null;
      this.set((st) => ({
        ...st,
        session: st.session ? { ...st.session, status: "failed", loadError: errorText(err) } : st.session,
      }));
    }
  }

  clearFocus() {
    this.set((st) => (st.session && st.session.focusMessageId !== null ? { ...st, session: { ...st.session, focusMessageId: null } } : st));
  }

  async renameSession(id: number, title: string): Promise<void> {
    const t = title.trim();
    if (!t) return;
    try {
      await this.backend.renameSession(id, t);
      this.set((st) => ({
        ...st,
        sessions: st.sessions.map((x) => (x.id === id ? { ...x, title: t } : x)),
        session: st.session?.id === id && st.session.summary ? { ...st.session, summary: { ...st.session.summary, title: t } } : st.session,
      }));
    } catch (err) {
      this.fail("Could not rename the session", err);
    }
  }

  async deleteSession(id: number): Promise<void> {
    try {
      await this.backend.deleteSession(id);
      this.set((st) => ({
        ...st,
        sessions: st.sessions.filter((x) => x.id !== id),
        session: st.session?.id === id ? null : st.session,
      }));
    } catch (err) {
      this.fail("Could not delete the session", err);
    }
  }

  async forkSession(messageId: number): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    try {
      const sum = await this.backend.forkSession(s.id, messageId);
      this.set((st) => ({ ...st, sessions: sortSessions([sum, ...st.sessions.filter((x) => x.id !== sum.id)]) }));
      await this.openSession(sum.id);
    } catch (err) {
      this.fail("Could not fork the session", err);
    }
  }

  async exportSession(id: number, format: ExportFormat): Promise<string> {
    try {
      return await this.backend.saveSessionExport(id, format);
    } catch (err) {
      this.fail("Could not export the session", err);
      return "";
    }
  }

  // ---- chat ---------------------------------------------------------

  /** Sends now, or queues when a turn runs. Creates a session when none is open. */
  async submitPrompt(prompt: Prompt): Promise<void> {
    let s = this.state.session;
    if (!s) {
      const id = await this.newSession();
      if (id === null) return;
      s = this.state.session;
      if (!s) return;
    }
    if (s.turn !== "idle") {
      const sid = s.id;
      this.set((st) => ({ ...st, queued: { ...st.queued, [sid]: prompt } }));
      return;
    }
    await this.send(s.id, prompt);
  }

  unqueue(sessionId: number): Prompt | null {
    const q = this.state.queued[sessionId] ?? null;
    this.set((st) => {
      if (!(sessionId in st.queued)) return st;
      const queued = { ...st.queued };
      delete queued[sessionId];
      return { ...st, queued };
    });
    return q;
  }

  private sendQueued(sessionId: number) {
    const q = this.unqueue(sessionId);
    if (q) void this.send(sessionId, q);
  }

  private patchSession(id: number, patch: (s: NonNullable<AppState["session"]>) => NonNullable<AppState["session"]>) {
    this.set((st) => (st.session && st.session.id === id ? { ...st, session: patch(st.session) } : st));
  }

  private async send(sessionId: number, prompt: Prompt): Promise<void> {
    this.set((st) => ({ ...st, lastPrompt: { ...st.lastPrompt, [sessionId]: prompt } }));
    this.patchSession(sessionId, (s) => ({ ...s, turn: "sending", error: null }));
    try {
      await this.backend.sendMessage(sessionId, prompt.text, prompt.attachments);
      this.patchSession(sessionId, (s) => (s.turn === "sending" ? { ...s, turn: "running" } : s));
    } catch (err) {
      this.patchSession(sessionId, (s) => ({
        ...s,
        turn: "idle",
        error: { kind: "send", message: `The message was not sent: ${errorText(err)}`, retryable: true },
      }));
    }
  }

  /** Resends the last prompt of the open session. */
  async retry(): Promise<void> {
    const s = this.state.session;
    if (!s || s.turn !== "idle") return;
    const prompt = this.state.lastPrompt[s.id] ?? lastUserPrompt(s);
    if (prompt) await this.send(s.id, prompt);
  }

  async cancel(): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    this.unqueue(s.id);
    try {
      await this.backend.cancelTurn(s.id);
    } catch (err) {
      this.fail("Could not stop the turn", err);
    }
  }

  async compact(): Promise<void> {
    const s = this.state.session;
    if (!s) return;
    try {
      await this.backend.compactNow(s.id);
    } catch (err) {
      this.fail("Could not compact the conversation", err);
    }
  }

  // ---- approvals ----------------------------------------------------

  private setReview(id: string, update: (r: ReviewState) => ReviewState) {
    this.set((st) => {
      const r = st.reviews[id];
      return r ? { ...st, reviews: { ...st.reviews, [id]: update(r) } } : st;
    });
  }

  updateReview(id: string, update: (r: ReviewState) => ReviewState) {
    this.setReview(id, update);
  }

  async loadChange(approvalId: string): Promise<void> {
    if (this.state.reviews[approvalId]) return;
    this.set((st) => ({ ...st, reviews: { ...st.reviews, [approvalId]: loadingReview(approvalId) } }));
    try {
      const change = await this.backend.getChange(approvalId);
      this.setReview(approvalId, () => readyReview(change));
    } catch (err) {
      this.setReview(approvalId, (r) => ({ ...r, phase: "load_failed", error: errorText(err) }));
    }
  }

  async submitChange(approvalId: string, mode: DecisionMode): Promise<void> {
    const r = this.state.reviews[approvalId];
    if (!r || !r.change || r.phase === "submitting" || r.phase === "submitted") return;
    const decision = buildDecision(r, mode);
    this.setReview(approvalId, (x) => ({
      ...x,
      phase: "submitting",
      error: null,
      decisions:
        mode === "as_decided"
          ? x.decisions
          : x.decisions.map((row) => row.map(() => (mode === "approve_all" ? "approved" : "rejected"))),
    }));
    try {
      await this.backend.decideChange(approvalId, decision);
      this.setReview(approvalId, (x) => ({ ...x, phase: "submitted" }));
    } catch (err) {
      this.setReview(approvalId, (x) => ({ ...x, phase: "submit_failed", error: errorText(err) }));
    }
  }

  async decideCommand(approvalId: string, approve: boolean, feedback: string, alwaysAllow: boolean): Promise<void> {
    try {
      await this.backend.decideCommand(approvalId, { approve, feedback: approve ? "" : feedback.trim(), alwaysAllow: approve && alwaysAllow });
    } catch (err) {
      this.fail("Could not send the decision", err);
    }
  }
}

export function lastUserPrompt(s: NonNullable<AppState["session"]>): Prompt | null {
  for (let i = s.messageIds.length - 1; i >= 0; i--) {
    const m = s.messages[s.messageIds[i]!];
    if (m?.role !== "user") continue;
    const text = m.blocks.filter((b) => b.type === "text").map((b) => b.text ?? "").join("\n");
    if (text) return { text, attachments: [] };
  }
  return null;
}
