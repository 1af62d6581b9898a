// A Backend for component tests: canned answers, every call recorded, and
// emit() to push events as the Go side would.
import type { Backend, ExportFormat, VersionInfo } from "../lib/backend";
import type { AppReadyPayload, EventMap, EventName } from "../lib/wire.gen";
import type { ApprovalMode, BranchMerge, BranchView, ChangeDecision, ChangeDetail, ChangeView, CommandDecision, CommitResult, ElicitationDecision, DirPage, DirPageQuery, FileDiff, FilePreview, GitStatus, ImageInput, ImageView, ImportedRules, Job, JobOutput, LanguageServer, LineComment, LanguageServerConfig, Ledger, MCPResource, MCPScope, MCPServer, MCPServerInput, MCPServers, MCPSignInStarted, MCPTrustPrompt, MergeResult, MessagePage, Project, RememberFiles, RestoreInput, RestoreResult, RewindMode, Rule, SandboxStatus, SearchHit, SessionDetail, SessionSummary, SettingsInput, SettingsView, Setup, ModelFacts, ModelList, ModelOverride, SlashCommand, ToolCall, TrustSection, Usage, WebSearchInput, WebSearchTest, WebSearchView, ReviewFinding, ReviewResult, ReviewScope, InboxItem } from "../lib/wire.gen";
import type { FileEntry } from "../lib/types";
import { FakeGit } from "./fakeGit";
import { FakeJobs } from "./fakeJobs";
import { FakeWeb } from "./fakeWeb";
import { FakeFindings } from "./fakeFindings";
import { FakeLedger } from "./fakeLedger";

export interface Call {
  method: keyof Backend;
  args: unknown[];
}

type Listener = (payload: never) => void;

export const zeroUsage: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
  costKnown: false,
  contextTokens: 0,
  contextWindow: 200000,
  contextWindowSource: "table",
};

export function summary(id: number, over: Partial<SessionSummary> = {}): SessionSummary {
  return { id, projectId: 1, title: `Session ${id}`, provider: "anthropic", model: "claude", createdAt: 1000 * id, updatedAt: 1000 * id, tokens: 0, costUsd: 0, state: "idle", approvalMode: "ask", ...over };
}

export function detail(id: number, over: Partial<SessionDetail> = {}): SessionDetail {
  return { seq: 0, session: summary(id), messages: [], toolCalls: [], pending: [], usage: zeroUsage, state: "idle", todos: [], hasOlder: false, ...over };
}

/** A configured MCP server as Settings lists it: a ready stdio server "fs" unless over says otherwise. */
export function mcpServer(over: Partial<MCPServer> = {}): MCPServer {
  return {
    name: "fs",
    scope: "project",
    transport: "stdio",
    display: "npx -y @modelcontextprotocol/server-filesystem .",
    state: "ready",
    error: "",
    tools: [{ name: "mcp__fs__read_file", tool: "read_file", description: "Read a file." }],
    stderr: ["Secure MCP Filesystem Server running on stdio"],
    restarts: 0,
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
    env: null,
    cwd: "",
    url: "",
    headers: null,
    disabled: false,
    needsSignIn: false,
    signIn: "",
    signInWhy: "",
    ...over,
  };
}

/** Session 1 as one assistant message holding the calls (their cards in order). */
export function withCalls(b: FakeBackend, calls: ToolCall[]) {
  b.details[1] = detail(1, {
    messages: [{ id: 2, role: "assistant", state: "complete", createdAt: 2, blocks: calls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: {} })) }],
    toolCalls: calls,
  });
}

export const defaultSettings: SettingsView = {
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  baseUrl: "",
  hasKey: true,
  keyHint: "sk-…9f3a",
  approvalMode: "ask",
  thinkingBudget: 0,
  budgetTokens: 0,
  budgetUsd: 0,
  checkpointRetentionMb: 512,
  mcpTimeoutSeconds: 60,
  helperConcurrency: 3,
  jobsPerSession: 3,
  notifications: true,
  checkpointUsageBytes: 12_897_485,
  source: {},
  sourceFrom: {},
  warnings: [],
  presets: [
    { id: "anthropic", name: "Anthropic", provider: "anthropic", baseUrl: "https://api.anthropic.com", needsKey: true, model: "claude-sonnet-4-5", local: false, keyEnv: "ANTHROPIC_API_KEY", keySource: "settings", keyHint: "sk-…9f3a" },
    { id: "openai", name: "OpenAI", provider: "openai", baseUrl: "https://api.openai.com/v1", needsKey: true, model: "gpt-5", local: false, keyEnv: "OPENAI_API_KEY" },
    { id: "deepseek", name: "DeepSeek", provider: "openai", baseUrl: "https://api.deepseek.com", needsKey: true, model: "deepseek-v4-flash", local: false, keyEnv: "DEEPSEEK_API_KEY", keySource: "env", keyHint: "sk-…0042" },
    { id: "mistral", name: "Mistral", provider: "openai", baseUrl: "https://api.mistral.ai/v1", needsKey: true, model: "devstral-medium-latest", local: false, keyEnv: "MISTRAL_API_KEY", keySource: "settings", keyHint: "mi-…beef", savedBaseUrl: "https://proxy.example/mistral/v1" },
    { id: "ollama", name: "Ollama", provider: "openai", baseUrl: "http://localhost:11434/v1", needsKey: false, local: true },
    { id: "lmstudio", name: "LM Studio", provider: "openai", baseUrl: "http://localhost:1234/v1", needsKey: false, local: true },
  ],
  needsOnboarding: false,
  modelOverrides: [],
};

/** A folder as the fake backend shows it: the project folder or a worktree. */
export interface FakeFolder {
  dirs: Record<string, FileEntry[]>;
  files: Record<string, string>;
  git: GitStatus;
}

/** The trust prompt's section for a project's .mcp.json with one server, fs. */
export const mcpSection: TrustSection = { kind: "mcp", path: "/p/.mcp.json", scope: "project", hash: "abc", items: ["fs: npx -y @modelcontextprotocol/server-filesystem ."], changed: false };

export class FakeBackend implements Backend {
  calls: Call[] = [];
  listeners = new Map<EventName, Set<Listener>>();

  projects: Project[] = [{ id: 1, path: "/home/u/proj", name: "proj", lastOpened: 10 }];
  sessions: SessionSummary[] = [summary(1)];
  details: Record<number, SessionDetail> = { 1: detail(1) };
  changes: Record<string, ChangeView> = {};
  /** Proposed texts by approval id and path ("ap1:main.go"). */
  proposed: Record<string, string> = {};
  settings: SettingsView = { ...defaultSettings };
  /** The OS sandbox as sandboxStatus reports it; a test sets it. */
  sandbox: SandboxStatus = { ready: true, userNamespaces: "available", landlockAbi: 4, bwrap: "/usr/bin/bwrap", bwrapVersion: "0.11.0", hidden: [], sockets: [] };
  /** The language servers languageServers reports; a test sets them. */
  langServers: LanguageServer[] = [];
  /** The user's own language servers, as saved. */
  userLangs: LanguageServerConfig[] = [];
  dirs: Record<string, FileEntry[]> = {};
  /** The version of every listing ListDir gives (bump it when dirs change). */
  dirVersion = 1;
  files: Record<string, string> = {};
  hits: SearchHit[] = [];
  models: string[] = [];
  /** When set, listModels fails with this message. */
  modelsError = "";
  rules: Rule[] = [];
  /** When set, getSession waits for this promise before answering. */
  gate: Promise<void> | null = null;
  /** listSessions reads the sessions at once and answers when this resolves (a slow answer). */
  listGate: Promise<void> | null = null;
  /** How many messages getSession and olderMessages answer with (the backend's pages). */
  pageSize = Infinity;
  /** When set, olderMessages fails with this message. */
  olderError = "";
  /** Checkpoints per session; reverts and rewinds write to `files`. */
  ledger = new FakeLedger(() => this.files, (from, id) => {
    const s = summary(id, { title: `Fork of session ${from}` });
    this.sessions.push(s);
    this.details[id] = detail(id, { session: s });
  });
  /** Worktree sessions' branches, merges and commits. */
  git = new FakeGit();
  /** Background jobs; a test starts them, writes their output and ends them. */
  jobs = new FakeJobs((name, payload) => this.emit(name, payload));
  web = new FakeWeb();
  findings = new FakeFindings();
  /** When set, approvePlan fails with this message. */
  approvePlanError = "";
  /** When set, frontendReady fails with it (Pilot could not open its data). */
  startError: Error | null = null;
  /** When set, setSessionMode fails with this message. */
  setModeError = "";
  /** What gitStatus answers; a test sets it. */
  gitStatusAnswer: GitStatus = { repo: true, branch: "main", uncommitted: 0 };
  /** When set, gitStatus fails with this message. */
  gitError = "";
  /**
   * The worktrees' folders by path (a session's summary names its
   * worktree): what listDir, readProjectFile, findFiles and gitStatus
   * answer for a worktree session, as the backend roots them there.
   */
  worktrees: Record<string, FakeFolder> = {};

  /** The folder the session works in, as the backend resolves it (0: the project folder). */
  private folderOf(projectId: number, sessionId: number): FakeFolder {
    const project: FakeFolder = { dirs: this.dirs, files: this.files, git: this.gitStatusAnswer };
    if (sessionId === 0) return project;
    const s = this.sessions.find((x) => x.id === sessionId);
    if (!s) throw new Error(`session ${sessionId}: not found`);
    if (s.projectId !== projectId) throw new Error(`session ${sessionId} belongs to another project than project ${projectId}: open its project to see its files`);
    if (!s.worktree) return project;
    if (s.worktreeDiscarded) throw new Error(`session ${sessionId}'s worktree and its branch ${s.branch} were discarded, so its files are gone: the session stays as history`);
    return (this.worktrees[s.worktree] ??= { dirs: {}, files: {}, git: { repo: true, branch: s.branch ?? "", uncommitted: 0 } });
  }
  /** When set, the next restore (revert or rewind) fails with it. */
  restoreError: Error | null = null;

  private record(method: keyof Backend, ...args: unknown[]) {
    this.calls.push({ method, args });
  }

  callsOf(method: keyof Backend): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  emit<K extends EventName>(name: K, payload: EventMap[K]): void {
    for (const l of this.listeners.get(name) ?? []) (l as (p: EventMap[K]) => void)(payload);
  }

  listenerCount(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  on<K extends EventName>(name: K, cb: (payload: EventMap[K]) => void): () => void {
    const set = this.listeners.get(name) ?? new Set<Listener>();
    set.add(cb as Listener);
    this.listeners.set(name, set);
    return () => set.delete(cb as Listener);
  }

  async openExternal(url: string): Promise<void> {
    this.record("openExternal", url);
  }
  async quitNow(): Promise<void> {
    this.record("quitNow");
  }
  async version(): Promise<VersionInfo> {
    return { version: "0.0.0-test", commit: "abc", wails: "v2", go: "go1.24", os: "linux", arch: "amd64" };
  }
  async frontendReady(): Promise<AppReadyPayload> {
    this.record("frontendReady");
    if (this.startError) throw this.startError;
    return { startupMs: 5 };
  }
  async listProjects(): Promise<Project[]> {
    this.record("listProjects");
    return this.projects;
  }
  async openProject(path: string): Promise<Project> {
    this.record("openProject", path);
    return this.projects.find((p) => p.path === path) ?? { id: 99, path, name: path.split("/").pop() ?? path, lastOpened: 99 };
  }
  async pickProjectFolder(): Promise<string> {
    this.record("pickProjectFolder");
    return "";
  }
  async gitStatus(projectId: number, sessionId: number): Promise<GitStatus> {
    this.record("gitStatus", projectId, sessionId);
    if (this.gitError) throw new Error(this.gitError);
    return this.folderOf(projectId, sessionId).git;
  }
  async listSessions(projectId: number, limit: number, offset: number): Promise<SessionSummary[]> {
    this.record("listSessions", projectId, limit, offset);
    // The store's order: last updated first, then newest id.
    const sorted = this.sessions.slice().sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
    const page = sorted.slice(offset, offset + limit); // read now, answered once listGate opens
    if (this.listGate) await this.listGate;
    return page;
  }
  async getSession(sessionId: number, focusMessageId: number): Promise<SessionDetail> {
    this.record("getSession", sessionId, focusMessageId);
    if (this.gate) await this.gate;
    const d = this.details[sessionId];
    if (!d) throw new Error("no such session");
    return { ...d, ...this.page(d, d.messages.length, focusMessageId) };
  }
  async olderMessages(sessionId: number, before: number, from: number): Promise<MessagePage> {
    this.record("olderMessages", sessionId, before, from);
    if (this.olderError) throw new Error(this.olderError);
    const d = this.details[sessionId];
    const end = d?.messages.findIndex((m) => m.id === before) ?? -1;
    if (!d || end < 0) throw new Error("no such message");
    return this.page(d, end, from);
  }
  /** The pageSize messages before index end, reaching back to message from. */
  private page(d: SessionDetail, end: number, from: number): MessagePage {
    let start = Math.max(0, end - this.pageSize);
    const at = d.messages.findIndex((m) => m.id === from);
    if (at >= 0) start = Math.min(start, at);
    const messages = d.messages.slice(start, end);
    const ids = new Set(messages.map((m) => m.id));
    return { messages, toolCalls: d.toolCalls.filter((c) => ids.has(c.messageId)), hasOlder: start > 0 };
  }
  async newSession(projectId: number): Promise<SessionSummary> {
    this.record("newSession", projectId);
    const s = summary(100 + this.calls.length, { projectId });
    this.details[s.id] = detail(s.id, { session: s });
    return s;
  }
  /** A sentence newWorktreeSession refuses name with, or null to make it. */
  refuseWorktree: (name: string) => string | null = () => null;
  async newWorktreeSession(projectId: number, name: string): Promise<SessionSummary> {
    this.record("newWorktreeSession", projectId, name);
    const why = this.refuseWorktree(name);
    if (why) throw new Error(why);
    const s = summary(100 + this.calls.length, { projectId, branch: `pilot/${name}`, worktree: `/home/u/.local/share/pilot/worktrees/${projectId}/${name}` });
    this.details[s.id] = detail(s.id, { session: s });
    return s;
  }
  async renameSession(sessionId: number, title: string): Promise<void> {
    this.record("renameSession", sessionId, title);
  }
  async deleteSession(sessionId: number): Promise<void> {
    this.record("deleteSession", sessionId);
  }
  async forkSession(sessionId: number, messageId: number): Promise<SessionSummary> {
    this.record("forkSession", sessionId, messageId);
    const s = summary(500);
    this.details[500] = detail(500, { session: s });
    return s;
  }
  async exportSession(sessionId: number, format: ExportFormat): Promise<string> {
    this.record("exportSession", sessionId, format);
    return "";
  }
  async saveSessionExport(sessionId: number, format: ExportFormat): Promise<string> {
    this.record("saveSessionExport", sessionId, format);
    return `/tmp/s${sessionId}.${format}`;
  }
  async searchSessions(projectId: number, query: string): Promise<SearchHit[]> {
    this.record("searchSessions", projectId, query);
    return this.hits;
  }
  /** Images getImage serves, by hash. */
  images: Record<string, ImageView> = {};
  async getImage(hash: string): Promise<ImageView> {
    this.record("getImage", hash);
    const v = this.images[hash];
    if (!v) throw new Error(`no image ${hash}`);
    return v;
  }
  async sendMessage(sessionId: number, text: string, attachments: string[], images: ImageInput[] = []): Promise<void> {
    this.record("sendMessage", sessionId, text, attachments, ...(images.length > 0 ? [images] : []));
  }
  async cancelTurn(sessionId: number): Promise<void> {
    this.record("cancelTurn", sessionId);
  }
  async compactNow(sessionId: number): Promise<void> {
    this.record("compactNow", sessionId);
  }
  async setSessionMode(sessionId: number, mode: ApprovalMode): Promise<SessionSummary> {
    this.record("setSessionMode", sessionId, mode);
    if (this.setModeError) throw new Error(this.setModeError);
    const d = this.details[sessionId];
    const s = { ...(d?.session ?? summary(sessionId)), approvalMode: mode };
    if (d) this.details[sessionId] = { ...d, session: s };
    return s;
  }
  async approvePlan(sessionId: number, mode: ApprovalMode, plan: string): Promise<SessionSummary> {
    this.record("approvePlan", sessionId, mode, plan);
    if (this.approvePlanError) throw new Error(this.approvePlanError);
    return this.setSessionMode(sessionId, mode);
  }
  async retryTurn(sessionId: number): Promise<void> {
    this.record("retryTurn", sessionId);
  }
  async reportError(where: string, sessionId: number, message: string): Promise<void> {
    this.record("reportError", where, sessionId, message);
  }
  async getChange(approvalId: string): Promise<ChangeView> {
    this.record("getChange", approvalId);
    const c = this.changes[approvalId];
    if (!c) throw new Error("no such change");
    return c;
  }
  async proposedText(approvalId: string, path: string): Promise<string> {
    this.record("proposedText", approvalId, path);
    const t = this.proposed[`${approvalId}:${path}`];
    if (t === undefined) throw new Error("this change is no longer waiting for a decision");
    return t;
  }
  /** Line comments as Go keeps them (a sent one is history). */
  stored: LineComment[] = [];
  async lineComments(sessionId: number): Promise<LineComment[]> {
    this.record("lineComments", sessionId);
    return this.stored.filter((c) => c.sessionId === sessionId);
  }
  async saveLineComment(c: LineComment): Promise<LineComment> {
    this.record("saveLineComment", c);
    if (c.id === 0) {
      const saved = { ...c, id: Math.max(0, ...this.stored.map((x) => x.id)) + 1 };
      this.stored.push(saved);
      return saved;
    }
    const i = this.stored.findIndex((x) => x.id === c.id && x.state !== "sent");
    if (i < 0) throw new Error("this comment can no longer be changed (it was sent or deleted); reopen the session to see it");
    this.stored[i] = c;
    return c;
  }
  async deleteLineComment(sessionId: number, id: number): Promise<void> {
    this.record("deleteLineComment", sessionId, id);
    this.stored = this.stored.filter((x) => !(x.sessionId === sessionId && x.id === id && x.state !== "sent"));
  }
  async sendReview(sessionId: number): Promise<void> {
    this.record("sendReview", sessionId);
    this.stored = this.stored.map((x) => (x.sessionId === sessionId && x.state === "draft" && x.text.trim() ? { ...x, state: "sent" } : x));
  }
  async decideChange(approvalId: string, decision: ChangeDecision): Promise<void> {
    this.record("decideChange", approvalId, decision);
    this.inboxItems = this.inboxItems.filter((x) => x.approval.id !== approvalId);
  }
  async decideCommand(approvalId: string, decision: CommandDecision): Promise<void> {
    this.record("decideCommand", approvalId, decision);
    this.inboxItems = this.inboxItems.filter((x) => x.approval.id !== approvalId);
  }
  /** Every session's waiting decisions, oldest first; a decision takes its item out (the test emits its approval_done). */
  inboxItems: InboxItem[] = [];
  async inbox(): Promise<InboxItem[]> {
    this.record("inbox");
    return this.inboxItems;
  }
  /** What Go says of the next form answered: a refusal, or null to take it. */
  elicitationRefusal: string | null = null;
  async decideElicitation(approvalId: string, decision: ElicitationDecision): Promise<void> {
    this.record("decideElicitation", approvalId, decision);
    if (this.elicitationRefusal) throw new Error(this.elicitationRefusal);
  }
  async getLedger(sessionId: number): Promise<Ledger> {
    this.record("getLedger", sessionId);
    return this.ledger.ledger(sessionId);
  }
  async getFileDiff(sessionId: number, path: string): Promise<FileDiff> {
    this.record("getFileDiff", sessionId, path);
    return this.ledger.fileDiff(sessionId, path);
  }
  async getCheckpointDiff(checkpointId: number, path: string): Promise<FileDiff> {
    this.record("getCheckpointDiff", checkpointId, path);
    return this.ledger.checkpointDiff(checkpointId, path);
  }
  async getChangeDetail(sessionId: number, toolCallId: string): Promise<ChangeDetail> {
    this.record("getChangeDetail", sessionId, toolCallId);
    return this.ledger.changeDetail(toolCallId);
  }
  private restored(sessionId: number, run: () => RestoreResult): RestoreResult {
    if (this.restoreError) throw this.restoreError;
    const r = run();
    if (r.done) this.emit("ledger:updated", { sessionId });
    return r;
  }
  async revertCheckpoint(checkpointId: number, input: RestoreInput): Promise<RestoreResult> {
    this.record("revertCheckpoint", checkpointId, input);
    return this.restored(this.ledger.sessionOf(checkpointId), () => this.ledger.revertCheckpoint(checkpointId, input));
  }
  async revertFile(sessionId: number, path: string, input: RestoreInput): Promise<RestoreResult> {
    this.record("revertFile", sessionId, path, input);
    return this.restored(sessionId, () => this.ledger.revertFile(sessionId, path, input));
  }
  async rewind(sessionId: number, messageId: number, mode: RewindMode, input: RestoreInput): Promise<RestoreResult> {
    this.record("rewind", sessionId, messageId, mode, input);
    return this.restored(sessionId, () => this.ledger.rewind(sessionId, messageId, mode, input));
  }
  async listDir(projectId: number, sessionId: number, q: DirPageQuery): Promise<DirPage> {
    this.record("listDir", projectId, q.dir, q.offset, q.version, sessionId);
    const folder = this.folderOf(projectId, sessionId);
    // As the backend: folders first, then files, each in the locale's order.
    const collator = new Intl.Collator(q.locale);
    const sorted = (folder.dirs[q.dir] ?? []).slice().sort((a, b) => Number(b.isDir) - Number(a.isDir) || collator.compare(a.name, b.name));
    const entries = sorted
      .slice(q.offset, q.offset + q.limit)
      .map((e) => ({ name: e.name, ...(e.isDir && { dir: true }), ...(e.isLink && { link: true }), ...(e.changed && { changed: true }), ...(e.errors && { errors: e.errors }) }));
    return { dir: q.dir, version: this.dirVersion, total: sorted.length, offset: q.offset, entries };
  }
  async readProjectFile(projectId: number, sessionId: number, path: string): Promise<FilePreview> {
    this.record("readProjectFile", projectId, path, sessionId);
    const text = this.folderOf(projectId, sessionId).files[path] ?? "";
    return { path, text, binary: false, truncated: false, size: text.length };
  }
  async findFiles(projectId: number, sessionId: number, query: string, limit: number): Promise<string[]> {
    this.record("findFiles", projectId, query, limit, sessionId);
    return Object.keys(this.folderOf(projectId, sessionId).files).filter((p) => p.includes(query)).slice(0, limit);
  }
  async getSettings(): Promise<SettingsView> {
    this.record("getSettings");
    return this.settings;
  }
  async saveSettings(input: SettingsInput): Promise<SettingsView> {
    this.record("saveSettings", input);
    const { provider, model, baseUrl, thinkingBudget, checkpointRetentionMb, mcpTimeoutSeconds, helperConcurrency } = input;
    // Absent or 0 keeps the saved value, as the Go side does.
    const jobsPerSession = input.jobsPerSession || this.settings.jobsPerSession;
    const notifications = input.notifications ?? this.settings.notifications;
    this.settings = { ...this.settings, provider, model, baseUrl, thinkingBudget, checkpointRetentionMb, mcpTimeoutSeconds, helperConcurrency, jobsPerSession, notifications, needsOnboarding: false };
    return this.settings;
  }
  async sandboxStatus(): Promise<SandboxStatus> {
    this.record("sandboxStatus");
    return this.sandbox;
  }
  async setSandboxHidden(paths: string[]): Promise<SandboxStatus> {
    this.record("setSandboxHidden", paths);
    const clean = paths.map((p) => p.trim()).filter((p) => p !== "");
    const bad = clean.find((p) => !p.startsWith("/") && !p.startsWith("~/"));
    if (bad !== undefined) throw new Error(`the hidden path "${bad}" is neither absolute nor under ~/: write it as /abs/path or ~/folder`);
    this.sandbox = { ...this.sandbox, hidden: clean };
    return this.sandbox;
  }
  async setSandboxSockets(paths: string[]): Promise<SandboxStatus> {
    this.record("setSandboxSockets", paths);
    const clean = paths.map((p) => p.trim()).filter((p) => p !== "");
    const bad = clean.find((p) => !p.startsWith("/") && !p.startsWith("~/"));
    if (bad !== undefined) throw new Error(`the allowed socket "${bad}" is neither absolute nor under ~/: write it as /abs/path or ~/folder`);
    this.sandbox = { ...this.sandbox, sockets: clean };
    return this.sandbox;
  }
  async languageServers(projectId: number): Promise<LanguageServer[]> {
    this.record("languageServers", projectId);
    return this.langServers;
  }
  async userLanguageServers(): Promise<LanguageServerConfig[]> {
    this.record("userLanguageServers");
    return this.userLangs;
  }
  async setLanguageServers(servers: LanguageServerConfig[]): Promise<LanguageServerConfig[]> {
    this.record("setLanguageServers", servers);
    const clean = servers
      .map((x) => ({ name: x.name.trim(), command: x.command.map((a) => a.trim()).filter(Boolean), patterns: x.patterns.map((p) => p.trim()).filter(Boolean) }))
      .filter((x) => x.name || x.command.length || x.patterns.length);
    const bad = clean.find((x) => x.patterns.length === 0);
    if (bad) throw new Error(`the language server "${bad.name}" serves no files: give at least one pattern (e.g. **/*.zig)`);
    this.userLangs = clean;
    return clean;
  }
  async listModels(provider: string, baseUrl: string, apiKey: string): Promise<string[]> {
    this.record("listModels", provider, baseUrl, apiKey);
    if (this.modelsError) throw new Error(this.modelsError);
    return this.models;
  }
  /** What sessionModels answers: each model of the session's server with its facts. */
  modelFacts: ModelFacts[] = [
    { id: "claude-sonnet-4-5", window: 200000, windowSource: "table", maxOutput: 64000, maxOutputSource: "table", prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, pricesSource: "table" },
    { id: "claude-haiku-4-5", window: 200000, windowSource: "table", maxOutput: 64000, maxOutputSource: "table", prices: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, pricesSource: "table" },
  ];
  async sessionModels(sessionId: number): Promise<ModelList> {
    this.record("sessionModels", sessionId);
    if (this.modelsError) throw new Error(this.modelsError);
    return { provider: "anthropic", baseUrl: "", models: this.modelFacts.map((f) => f.id), facts: this.modelFacts };
  }
  async setSessionModel(sessionId: number, model: string): Promise<SessionSummary> {
    this.record("setSessionModel", sessionId, model);
    const d = this.details[sessionId];
    const s = { ...(d?.session ?? summary(sessionId)), model };
    if (d) this.details[sessionId] = { ...d, session: s };
    return s;
  }
  /** When set, setModelOverride refuses with this sentence (the backend's refusal of a value out of bounds). */
  overrideError = "";
  async setModelOverride(o: ModelOverride): Promise<SettingsView> {
    this.record("setModelOverride", o);
    if (this.overrideError) throw new Error(this.overrideError);
    const rest = this.settings.modelOverrides.filter((m) => m.id !== o.id);
    const set = o.window > 0 || o.maxOutput > 0 || o.prices != null;
    this.settings = { ...this.settings, modelOverrides: set ? [...rest, o].sort((a, b) => a.id.localeCompare(b.id)) : rest };
    return this.settings;
  }
  async listRules(projectId: number): Promise<Rule[]> {
    this.record("listRules", projectId);
    return this.rules;
  }
  imported: ImportedRules = { rules: [], ignored: [] };
  async importedRules(projectId: number): Promise<ImportedRules> {
    this.record("importedRules", projectId);
    return this.imported;
  }
  setupView: Setup = { project: "/p", items: [], needsTrust: false, toolNames: [] };
  async setup(projectId: number): Promise<Setup> {
    this.record("setup", projectId);
    return this.setupView;
  }
  /** What the backend's validation says of a rule: a sentence refuses it. */
  refuseRule: (tool: string, pattern: string, effect: string) => string | null = () => null;
  async addRule(projectId: number, tool: string, pattern: string, effect: string): Promise<Rule> {
    this.record("addRule", projectId, tool, pattern, effect);
    const refused = this.refuseRule(tool, pattern, effect);
    if (refused) throw new Error(refused);
    const r: Rule = { id: this.rules.length + 1, tool, pattern, effect: effect === "deny" ? "deny" : "allow", invalid: "" };
    this.rules = [...this.rules, r];
    return r;
  }
  async deleteRule(projectId: number, ruleId: number): Promise<void> {
    this.record("deleteRule", projectId, ruleId);
  }

  mcp: MCPServers = { project: "/p", configError: "", servers: [] };
  trust: MCPTrustPrompt = { needed: false, project: "/p", path: "/p/.mcp.json", hash: "", servers: [], changed: false, sections: [], token: "" };
  async mcpServers(): Promise<MCPServers> {
    this.record("mcpServers");
    return this.mcp;
  }
  async mcpTrustPrompt(): Promise<MCPTrustPrompt> {
    this.record("mcpTrustPrompt");
    return this.trust;
  }
  async mcpTrust(hash: string): Promise<void> {
    this.record("mcpTrust", hash);
    this.trust = { ...this.trust, needed: false };
  }
  async trustProject(token: string): Promise<void> {
    this.record("trustProject", token);
    if (token !== this.trust.token) throw new Error("the project's files changed since they were shown, so nothing was trusted: look at them again and trust what you see");
    this.trust = { ...this.trust, needed: false };
  }
  async mcpSaveServer(input: MCPServerInput): Promise<void> {
    this.record("mcpSaveServer", input);
  }
  async mcpRemoveServer(scope: MCPScope, name: string): Promise<void> {
    this.record("mcpRemoveServer", scope, name);
  }
  slash: SlashCommand[] = [];
  /** What rememberFiles answers. */
  remember: RememberFiles = { project: "AGENTS.md", user: "~/.claude/CLAUDE.md" };
  resources: MCPResource[] = [];
  async findMcpResources(query: string, limit: number): Promise<MCPResource[]> {
    this.record("findMcpResources", query, limit);
    return this.resources.filter((r) => `${r.server}:${r.name} ${r.uri}`.includes(query)).slice(0, limit);
  }
  async rememberFiles(sessionId: number): Promise<RememberFiles> {
    this.record("rememberFiles", sessionId);
    return this.remember;
  }
  async listSlashCommands(sessionId: number): Promise<SlashCommand[]> {
    this.record("listSlashCommands", sessionId);
    return this.slash;
  }
  async mcpSetDisabled(scope: MCPScope, name: string, disabled: boolean): Promise<void> {
    this.record("mcpSetDisabled", scope, name, disabled);
  }
  async mcpSignIn(name: string): Promise<MCPSignInStarted> {
    this.record("mcpSignIn", name);
    return { server: name, address: "https://auth.example/authorize" };
  }
  async mcpSignOut(name: string): Promise<void> {
    this.record("mcpSignOut", name);
  }
  async mcpCancelSignIn(name: string): Promise<void> {
    this.record("mcpCancelSignIn", name);
  }
  async retryToolCall(sessionId: number, toolUseId: string): Promise<void> {
    this.record("retryToolCall", sessionId, toolUseId);
  }
  async discardWorktree(sessionId: number): Promise<void> {
    this.record("discardWorktree", sessionId);
    this.git.branch(sessionId);
    this.git.discarded.add(sessionId);
  }
  async getBranch(sessionId: number): Promise<BranchView> {
    this.record("getBranch", sessionId);
    if (this.git.branchGate) await this.git.branchGate;
    return this.git.branch(sessionId);
  }
  async mergeBranch(sessionId: number, merge: BranchMerge): Promise<MergeResult> {
    this.record("mergeBranch", sessionId, merge);
    return this.git.merge(sessionId, merge);
  }
  async draftCommitMessage(sessionId: number): Promise<string> {
    this.record("draftCommitMessage", sessionId);
    if (this.git.draftGate) await this.git.draftGate;
    return this.git.draftMessage();
  }
  async commitSession(sessionId: number, message: string): Promise<CommitResult> {
    this.record("commitSession", sessionId, message);
    return this.git.commit(sessionId, message);
  }
  async runReview(sessionId: number, scope: ReviewScope): Promise<ReviewResult> {
    this.record("runReview", sessionId, scope);
    return this.findings.run(sessionId, scope);
  }
  async reviewFindings(sessionId: number): Promise<ReviewFinding[]> {
    this.record("reviewFindings", sessionId);
    return this.findings.list(sessionId);
  }
  async dismissFinding(id: number): Promise<ReviewFinding> {
    this.record("dismissFinding", id);
    return this.findings.set(id, "dismissed");
  }
  async fixFinding(id: number): Promise<ReviewFinding> {
    this.record("fixFinding", id);
    return this.findings.set(id, "fixing");
  }
  async listJobs(sessionId: number): Promise<Job[]> {
    this.record("listJobs", sessionId);
    return this.jobs.list(sessionId);
  }
  async jobOutput(sessionId: number, jobId: string): Promise<JobOutput> {
    this.record("jobOutput", sessionId, jobId);
    return this.jobs.output(sessionId, jobId);
  }
  async stopJob(sessionId: number, jobId: string): Promise<void> {
    this.record("stopJob", sessionId, jobId);
    return this.jobs.stop(sessionId, jobId);
  }
  async getWebSearch(): Promise<WebSearchView> {
    this.record("getWebSearch");
    return this.web.view;
  }
  async saveWebSearch(input: WebSearchInput): Promise<WebSearchView> {
    this.record("saveWebSearch", input);
    return this.web.save(input);
  }
  async testWebSearch(input: WebSearchInput): Promise<WebSearchTest> {
    this.record("testWebSearch", input);
    return this.web.test();
  }
}
