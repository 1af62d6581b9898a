// The window's actions: every call to the backend and every event goes
// through here and lands in the store.
import type { Backend } from "../lib/backend";
import type { EventMap } from "../lib/wire.gen";
import { errorText } from "../lib/format";
import type { Approval, SessionSummary, SettingsInput, SettingsView } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import { initialState, sortProjects, type AppState, type Dialog } from "./appState";
import { ApprovalActions } from "./approvals";
import { ChatActions } from "./chat";
import { DesktopActions } from "./desktop";
import { InboxActions } from "./inbox";
import { LayoutActions, rememberedSidebar } from "./layout";
import { JobActions } from "./jobs";
import { LedgerActions } from "./ledger";
import { noLedger } from "./ledgerState";
import { SeqGate } from "./seqGate";
import { PlanActions } from "./plan";
import { ModelActions } from "./model";
import { applyLive } from "./liveSessions";
import { BranchCache } from "./branchCache";
import { CommentActions } from "./comments";
import { GitStatusReader } from "./gitStatus";
import { mergeSessions, SessionListActions } from "./sessionList";
import { applyEvent, emptySession, prependPage, sessionFromDetail, type SessionEvent, type SessionEventName, type SessionView } from "./sessionState";
import { SessionMemory } from "./sessionMemory";
import { Store } from "./store";

function localStore(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The session events that go straight to the open session's sequence (and
 * to the sessions' live state); the others do something else as well.
 */
const ROUTED = [
  "agent:state",
  "agent:stream",
  "agent:message",
  "agent:tool",
  "agent:tool_output",
  "agent:approval",
  "agent:approval_done",
  "agent:usage",
  "agent:notice",
  "agent:error",
  "agent:todos",
  "agent:turn_done",
] as const satisfies readonly SessionEventName[];

export class AppController implements ActionContext {
  readonly store: Store<AppState>;
  readonly approvals: ApprovalActions;
  readonly chat: ChatActions;
  readonly sessions: SessionListActions;
  readonly layout: LayoutActions;
  readonly ledger: LedgerActions;
  readonly plan: PlanActions;
  readonly models = new ModelActions(this);
  readonly desktop: DesktopActions;
  readonly inbox: InboxActions = new InboxActions(this, (p) => this.desktop.openSession(p));
  readonly jobs: JobActions;
  /** Comments on lines and the review that sends them. */
  readonly comments: CommentActions;
  /** Each session's draft and scroll place while another one is shown. */
  readonly memory = new SessionMemory();
  /** The worktree sessions' branches read ahead, so the Branch view shows at once. */
  readonly branches: BranchCache;
  private readonly gitStatus = new GitStatusReader(this);
  private gate = new SeqGate<SessionEvent>((evs) => this.applyBatch(evs));
  /** Events of the session being loaded wait here until its snapshot arrives. */
  /** The read of older messages under way. */
  private olderRead: { id: number; read: Promise<void> } | null = null;
  private held: SessionEvent[] | null = null;
  private openToken = 0;
  private loaded = false;

  constructor(
    readonly backend: Backend,
    storage: Storage | undefined = localStore(),
  ) {
    this.branches = new BranchCache(backend);
    this.store = new Store<AppState>({ ...initialState, layout: { ...initialState.layout, sidebar: rememberedSidebar(storage) } });
    this.approvals = new ApprovalActions(this);
    this.chat = new ChatActions(this, () => this.newSession());
    this.sessions = new SessionListActions(
      this,
      (id) => this.openSession(id),
      (id) => {
        this.memory.forget(id);
        this.branches.drop(id);
        this.jobs.forget(id);
      },
    );
    this.layout = new LayoutActions(this, storage);
    this.ledger = new LedgerActions(this, (id) => this.openSession(id));
    this.plan = new PlanActions(
      this,
      () => this.newSession(),
      (p) => this.chat.submitPrompt(p),
      (id) => this.inbox.sessionMoved(id, true),
    );
    this.desktop = new DesktopActions(this, (path) => this.openProject(path), (id) => this.openSession(id), (at) => this.inbox.open(at));
    this.jobs = new JobActions(this, () => this.layout.showPanel("jobs"));
    this.comments = new CommentActions(backend, {
      running: (id) => this.state.session?.id === id && this.state.session.turn !== "idle",
      decideChange: (id, drafts) => this.approvals.decideWithComments(id, drafts),
    });
  }

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
      // (TypeScript cannot pair a name of the union with its own payload: the cast says what on guarantees.)
      ...ROUTED.map((name) => b.on(name, (payload) => this.route({ name, payload } as SessionEvent))),
      // A job's events land in the Jobs panel's state at once (output is
      // placed by offset); those in a session's sequence go through it too,
      // so that the sequence has no gap.
      b.on("agent:job", (payload) => {
        this.jobs.onJob(payload);
        if (payload.seq > 0) this.route({ name: "agent:job", payload });
      }),
      b.on("agent:job_output", (payload) => {
        this.jobs.onOutput(payload);
        if (payload.seq > 0) this.route({ name: "agent:job_output", payload });
      }),
      b.on("agent:diagnostics", (payload) => {
        this.route({ name: "agent:diagnostics", payload });
        this.marksChanged(payload.sessionId);
      }),
      b.on("session:updated", (p) => this.onSessionUpdated(p)),
      b.on("ledger:updated", (p) => this.ledger.updated(p.sessionId)),
      b.on("app:open_project", (p) => void this.desktop.openProject(p)),
      b.on("app:open_session", (p) => void this.desktop.openSession(p)),
      b.on("app:confirm_quit", (p) => this.desktop.askQuit(p)),
    ];
    if (!this.loaded) {
      this.loaded = true;
      void this.loadSettings();
      void this.loadProjects();
      void this.inbox.refresh();
    }
    return () => {
      for (const off of offs) off();
      this.gate.dispose();
    };
  }

  // ---- events -------------------------------------------------------

  /** The error counts of some files of a session changed: the tree asks for its marks again when it shows that session. */
  private marksChanged(sessionId: number) {
    if (this.state.session?.id !== sessionId) return;
    this.set((st) => ({ ...st, marksVersion: st.marksVersion + 1 }));
  }

  private route(ev: SessionEvent) {
    this.trackLive(ev);
    const s = this.state.session;
    if (!s || ev.payload.sessionId !== s.id) return; // not the open session
    if (this.held) this.held.push(ev);
    else this.gate.push(ev);
  }

  /** Keeps every session's live state (the list shows it), open or not. */
  private trackLive(ev: SessionEvent) {
    this.set((st) => {
      const live = applyLive(st.live, ev);
      return live === st.live ? st : { ...st, live };
    });
    if (ev.name === "agent:turn_done" || (ev.name === "agent:approval_done" && ev.payload.outcome !== "rejected")) this.refreshGit();
    if (ev.name === "agent:turn_done") this.branches.readAhead(this.state, ev.payload.sessionId);
    if (ev.name === "agent:turn_done") this.comments.turnEnded(ev.payload.sessionId);
    if (ev.name === "agent:approval") void this.inbox.refresh();
    if (ev.name === "agent:turn_done" || ev.name === "agent:state" || ev.name === "agent:message")
      this.inbox.sessionMoved(ev.payload.sessionId, ev.name === "agent:turn_done" && ev.payload.reason === "plan");
    if (ev.name === "agent:approval_done") {
      this.inbox.approvalEnded(ev.payload.approvalId);
      // A review kept while its session was not open (see openSession) ends with its approval.
      const id = ev.payload.approvalId;
      this.set((st) => {
        if (!(id in st.reviews)) return st;
        const reviews = { ...st.reviews };
        delete reviews[id];
        return { ...st, reviews };
      });
    }
  }

  /** Reads the git state of the folder the open session works in, for the header (state/gitStatus.ts). */
  refreshGit(): void {
    this.gitStatus.refresh();
  }

  private applyBatch(evs: SessionEvent[]) {
    const sid = this.state.session?.id;
    this.set((st) => {
      if (!st.session || st.session.id !== sid) return st;
      let session = st.session;
      for (const ev of evs) session = applyEvent(session, ev);
      return session === st.session ? st : { ...st, session };
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
        this.layout.settled();
        break;
      }
      case "agent:turn_done":
        this.chat.sendQueued(ev.payload.sessionId);
        break;
      default:
    }
  }

  private onApproval(a: Approval) {
    this.layout.showPanel("review");
    if (a.kind === "change") void this.approvals.loadChange(a.id);
  }

  private onSessionUpdated(p: EventMap["session:updated"]) {
    const sum = p.session;
    const open = this.state.session;
    // Another Pilot process runs it (or just stopped): what it wrote is read again.
    if (open && open.id === sum.id && open.status === "ready" && (sum.elsewhere || open.summary?.elsewhere)) void this.reloadElsewhere(sum.id);
    if (sum.worktreeDiscarded) this.branches.drop(sum.id);
    const before = open?.id === sum.id ? open.summary : this.state.sessions.find((x) => x.id === sum.id);
    this.set((st) => {
      const inProject = st.project && sum.projectId === st.project.id;
      const sessions = inProject ? mergeSessions(st.sessions, [sum]) : st.sessions;
      const session = st.session && st.session.id === sum.id ? { ...st.session, summary: sum } : st.session;
      return { ...st, sessions, session };
    });
    // A turn another Pilot process ran ended: this window got none of its events, only this.
    if (before?.elsewhere && !sum.elsewhere) this.branches.readAhead(this.state, sum.id);
  }

  /** Sessions whose transcript is being read again: true when another read is due after it. */
  private reloads = new Map<number, boolean>();

  /**
   * Reads the open session again while another Pilot process runs it (this
   * window gets none of its events): one read at a time, and one more when
   * the session changed during it.
   */
  private async reloadElsewhere(id: number): Promise<void> {
    if (this.reloads.has(id)) {
      this.reloads.set(id, true);
      return;
    }
    const token = this.openToken;
    try {
      do {
        this.reloads.set(id, false);
        const detail = await this.backend.getSession(id, 0);
        if (token !== this.openToken) return;
        this.set((st) => (st.session?.id === id && st.session.status === "ready" ? { ...st, session: { ...sessionFromDetail(detail, null), summary: st.session.summary } } : st));
      } while (this.reloads.get(id));
    } catch (err) {
      this.report("window", id, `Could not read the session another Pilot process runs: ${errorText(err)}`);
    } finally {
      this.reloads.delete(id);
    }
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

  /** Opens a dialog (or closes it: "none"); Settings opens at the section settingsAt when given. */
  setDialog(dialog: Dialog, settingsAt: string | null = null) {
    this.set((st) => ({ ...st, dialog, settingsAt }));
  }

  dismissAppError() {
    this.set((st) => ({ ...st, appError: null }));
  }

  fail(what: string, err: unknown) {
    const message = what ? `${what}: ${errorText(err)}` : errorText(err);
    this.set((st) => ({ ...st, appError: message }));
    this.report(this.state.project ? "window" : "start", this.state.session?.id ?? 0, message);
  }

  /** Writes an error the window shows to the log; a failure to log is only a console line. */
  report(where: string, sessionId: number, message: string) {
    this.backend.reportError(where, sessionId, message).catch((err: unknown) => console.warn("could not log an error", err));
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
      // The branches read ahead are of the project left: memory holds one project's.
      if (this.state.project?.id !== project.id) this.branches.clear();
      this.gate.reset(null);
      this.set((st) => ({
        ...st,
        project,
        projects: sortProjects([project, ...st.projects.filter((p) => p.id !== project.id)]),
        sessions: [],
        sessionsStatus: "loading",
        sessionsMore: false,
        session: null,
        git: st.project?.id === project.id ? st.git : null,
        reviews: {},
        ledger: noLedger,
        changesPath: null,
        notice: null,
        filesVersion: st.filesVersion + 1,
        appError: null,
      }));
      this.refreshGit();
      await this.sessions.load();
      return true;
    } catch (err) {
      this.fail(`Could not open ${path}`, err);
      return false;
    }
  }

  // ---- sessions -----------------------------------------------------

  async newSession(): Promise<number | null> {
    const project = this.state.project;
    if (!project) return null;
    try {
      return this.enterNewSession(await this.backend.newSession(project.id));
    } catch (err) {
      this.fail("Could not start a session", err);
      return null;
    }
  }

  /** Starts a session in a new git worktree NAME and opens it; a refusal (bad or taken name, no git) is thrown for the dialog to show. */
  async newWorktreeSession(name: string): Promise<number> {
    const project = this.state.project;
    if (!project) throw new Error("Open a project first: a worktree is made from a project's repository.");
    return this.enterNewSession(await this.backend.newWorktreeSession(project.id, name));
  }

  /** Makes a session just created the open one, empty and ready. */
  private enterNewSession(sum: SessionSummary): number {
    this.forgetIfEmpty(this.state.session, sum.id);
    this.set((st) => ({ ...st, sessions: mergeSessions(st.sessions, [sum]) }));
    // Where the new session's seq starts is the backend's business: settle on the first events.
    this.gate.reset(null);
    this.held = null;
    this.openToken++;
    this.set((st) => ({ ...st, session: { ...emptySession(sum.id, sum), status: "ready" } }));
    this.ledger.reset(sum.id);
    void this.jobs.load(sum.id);
    this.layout.closeDrawer();
    this.layout.showChat();
    return sum.id;
  }

  async openSession(id: number, focusMessageId: number | null = null): Promise<void> {
    const token = ++this.openToken;
    this.layout.closeDrawer();
    const cur = this.state.session;
    if (cur && cur.id === id && cur.status === "ready") {
      if (focusMessageId !== null) await this.loadOlder(focusMessageId);
      if (token !== this.openToken) return;
      if (focusMessageId !== null) this.set((st) => (st.session ? { ...st, session: { ...st.session, focusMessageId } } : st));
      if (focusMessageId !== null || !cur.pending.length) this.layout.showChat();
      return;
    }
    this.forgetIfEmpty(cur, id);
    const summary = this.state.sessions.find((x) => x.id === id) ?? null;
    this.held = [];
    this.gate.reset(null);
    // Reviews are kept by approval id: a change half-decided in a session left is as it was on return.
    this.set((st) => ({ ...st, session: emptySession(id, summary) }));
    this.ledger.reset(null);
    void this.jobs.load(id);
    try {
      const detail = await this.backend.getSession(id, focusMessageId ?? 0);
      if (token !== this.openToken) return;
      const held = this.held ?? [];
      this.held = null;
      // The snapshot holds every event up to detail.seq: the gate applies only later ones.
      this.gate.reset(detail.seq);
      this.set((st) => ({ ...st, session: sessionFromDetail(detail, focusMessageId), live: { ...st.live, [id]: { agent: detail.state, waiting: detail.pending } } }));
      void this.ledger.load(id);
      this.branches.readAhead(this.state, id);
      for (const a of detail.pending) if (a.kind === "change") void this.approvals.loadChange(a.id);
      if (detail.pending.length) this.layout.showPanel("review");
      if (!detail.pending.length || focusMessageId !== null) this.layout.showChat();
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

  /**
   * Reads the page of messages before the first one loaded (reaching back
   * to message `from` when given), once at a time; a failure shows where
   * the older messages would be, with a retry.
   */
  async loadOlder(from = 0): Promise<void> {
    // One read at a time; a read back to a message waits for the one under way.
    const under = () => (this.olderRead && this.olderRead.id === this.state.session?.id ? this.olderRead.read : null);
    for (let r = under(); r; r = under()) {
      if (!from) return;
      await r;
    }
    const s = this.state.session;
    if (!s || s.status !== "ready" || !s.hasOlder || !s.messageIds.length || (from && from in s.messages)) return;
    const read = this.readOlder(s, from).finally(() => {
      if (this.olderRead?.read === read) this.olderRead = null;
    });
    this.olderRead = { id: s.id, read };
    return read;
  }

  private async readOlder(s: SessionView, from: number): Promise<void> {
    const id = s.id;
    const first = s.messageIds[0]!;
    // Still the session read from, with the same first message (not opened again since).
    const mine = (st: AppState) => st.session?.id === id && st.session.status === "ready" && st.session.messageIds[0] === first;
    this.set((st) => (mine(st) ? { ...st, session: { ...st.session!, older: "loading" } } : st));
    try {
      const page = await this.backend.olderMessages(id, first, from);
      this.set((st) => (mine(st) ? { ...st, session: prependPage(st.session!, page) } : st));
    } catch (err) {
      const message = `Could not read the earlier messages: ${errorText(err)}`;
      this.report("window", id, message);
      this.set((st) => (mine(st) ? { ...st, session: { ...st.session!, older: { error: message } } } : st));
    }
  }

  /**
   * Takes a session the user leaves without a message in it out of the list:
   * the backend deletes it at the same moment (see ARCHITECTURE.md, "A session
   * is kept once something is written in it").
   */
  private forgetIfEmpty(left: SessionView | null, next: number) {
    if (!left || left.id === next || left.status !== "ready" || left.messageIds.length > 0 || left.turn !== "idle") return;
    // The backend keeps a worktree session left without a message (its worktree may hold the user's work).
    if (left.summary?.worktree) return;
    this.set((st) => ({ ...st, sessions: st.sessions.filter((x) => x.id !== left.id) }));
  }

  clearFocus() {
    this.set((st) => (st.session && st.session.focusMessageId !== null ? { ...st, session: { ...st.session, focusMessageId: null } } : st));
  }
}
