// The one door from the UI to Go. Components receive a Backend through
// BackendContext, so unit tests hand them a fake (src/test/fakeBackend.ts)
// and the window hands them wailsBackend (./wailsBackend.ts), a typed
// adapter over the generated bindings in frontend/wailsjs.
import { createContext, useContext } from "react";
import type { AppReadyPayload, EventMap, EventName } from "./wire.gen";
import type { ApprovalMode, BranchMerge, BranchView, ChangeDecision, ChangeDetail, ChangeView, CommandDecision, CommitResult, DirPage, DirPageQuery, FileDiff, FilePreview, GitStatus, ImageInput, ImageView, ImportedRules, Job, JobOutput, LanguageServer, LanguageServerConfig, Ledger, MCPResource, MCPScope, MCPServerInput, MCPServers, MCPTrustPrompt, MergeResult, MessagePage, Project, RestoreInput, RestoreResult, RewindMode, Rule, SandboxStatus, SearchHit, SessionDetail, SessionSummary, SettingsInput, SettingsView, Setup, SlashCommand } from "./wire.gen";

export interface VersionInfo {
  version: string;
  commit: string;
  wails: string;
  go: string;
  os: string;
  arch: string;
}

export type ExportFormat = "md" | "json";

export interface Backend {
  // app
  version(): Promise<VersionInfo>;
  frontendReady(): Promise<AppReadyPayload>;
  on<K extends EventName>(name: K, cb: (payload: EventMap[K]) => void): () => void;
  /** Opens an http(s) link in the user's browser. */
  openExternal(url: string): Promise<void>;
  /** Closes the window although work is in flight (after app:confirm_quit). */
  quitNow(): Promise<void>;

  // projects
  listProjects(): Promise<Project[]>;
  openProject(path: string): Promise<Project>;
  /** Native folder picker; resolves to "" when the user cancels. */
  pickProjectFolder(): Promise<string>;
  /**
   * The branch and count of uncommitted paths of the folder the session
   * works in (its worktree; 0: the project folder); repo false, with why,
   * outside git.
   */
  gitStatus(projectId: number, sessionId: number): Promise<GitStatus>;

  // sessions
  listSessions(projectId: number, limit: number, offset: number): Promise<SessionSummary[]>;
  /** The session's last page of messages, reaching back to focusMessageId (a search hit; 0: none). */
  getSession(sessionId: number, focusMessageId: number): Promise<SessionDetail>;
  /** The page of messages before message `before`, reaching back at least to message `from` (0: one page). */
  olderMessages(sessionId: number, before: number, from: number): Promise<MessagePage>;
  newSession(projectId: number): Promise<SessionSummary>;
  /** A new session in a new git worktree NAME on the branch pilot/NAME; a bad or taken name, a folder outside git: an error sentence. */
  newWorktreeSession(projectId: number, name: string): Promise<SessionSummary>;
  renameSession(sessionId: number, title: string): Promise<void>;
  deleteSession(sessionId: number): Promise<void>;
  forkSession(sessionId: number, messageId: number): Promise<SessionSummary>;
  exportSession(sessionId: number, format: ExportFormat): Promise<string>;
  /** Native save dialog; resolves to the saved path, or "" when cancelled. */
  saveSessionExport(sessionId: number, format: ExportFormat): Promise<string>;
  searchSessions(projectId: number, query: string): Promise<SearchHit[]>;

  // chat
  /** Starts a turn; images are pasted or dropped screenshots (sent with SendMessageWithImages). */
  sendMessage(sessionId: number, text: string, attachments: string[], images?: ImageInput[]): Promise<void>;
  /** A message's image by its hash. */
  getImage(hash: string): Promise<ImageView>;
  cancelTurn(sessionId: number): Promise<void>;
  compactNow(sessionId: number): Promise<void>;
  /** Sets the session's mode (plan, ask, edits, all, none); a running turn takes it from its next model call. */
  setSessionMode(sessionId: number, mode: ApprovalMode): Promise<SessionSummary>;
  /** Leaves plan mode for mode (edits or ask) and starts the work with the plan as the first message. */
  approvePlan(sessionId: number, mode: ApprovalMode, plan: string): Promise<SessionSummary>;
  /** Runs the session's failed turn again from where it failed; the user's message is not added again. */
  retryTurn(sessionId: number): Promise<void>;
  /** Writes an error the window shows to the log (where: the view; sessionId 0: none). */
  reportError(where: string, sessionId: number, message: string): Promise<void>;

  // approvals
  getChange(approvalId: string): Promise<ChangeView>;
  /** The text a pending change proposes for one file: where an edit starts. */
  proposedText(approvalId: string, path: string): Promise<string>;
  decideChange(approvalId: string, decision: ChangeDecision): Promise<void>;
  decideCommand(approvalId: string, decision: CommandDecision): Promise<void>;

  // the change ledger
  getLedger(sessionId: number): Promise<Ledger>;
  /** Cumulative diff of one file: before the session's first change to it → the file now. */
  getFileDiff(sessionId: number, path: string): Promise<FileDiff>;
  /** What one checkpoint did to one file: before → after. */
  getCheckpointDiff(checkpointId: number, path: string): Promise<FileDiff>;
  /** A file change's card expanded (by the model's tool_use id). */
  getChangeDetail(sessionId: number, toolCallId: string): Promise<ChangeDetail>;
  revertCheckpoint(checkpointId: number, input: RestoreInput): Promise<RestoreResult>;
  revertFile(sessionId: number, path: string, input: RestoreInput): Promise<RestoreResult>;
  /** Restore files and/or the conversation to just before the user message messageId. */
  rewind(sessionId: number, messageId: number, mode: RewindMode, input: RestoreInput): Promise<RestoreResult>;

  // git: a session's branch, and bringing its work home
  /** Removes a worktree session's worktree and branch; the session stays as history, marked discarded. */
  discardWorktree(sessionId: number): Promise<void>;
  /** A worktree session's branch against its base: every file it changed, hunks numbered across files. */
  getBranch(sessionId: number): Promise<BranchView>;
  /** Applies the approved hunks of the branch to the project folder as one undoable change. */
  mergeBranch(sessionId: number, merge: BranchMerge): Promise<MergeResult>;
  /** A commit message for the session's work, written by its model. */
  draftCommitMessage(sessionId: number): Promise<string>;
  /** Commits the session's work: its branch (worktree session) or the files it changed (folder session). */
  commitSession(sessionId: number, message: string): Promise<CommitResult>;

  // files
  // Each of these reads the folder the session works in: its worktree, or
  // the project folder for 0 (see state/viewRoot.ts).
  /** One page of a folder for the file tree. */
  listDir(projectId: number, sessionId: number, q: DirPageQuery): Promise<DirPage>;
  readProjectFile(projectId: number, sessionId: number, path: string): Promise<FilePreview>;
  /** Fuzzy file search for the @ picker: relative paths, best first. */
  findFiles(projectId: number, sessionId: number, query: string, limit: number): Promise<string[]>;

  // settings and rules
  getSettings(): Promise<SettingsView>;
  saveSettings(input: SettingsInput): Promise<SettingsView>;
  listModels(provider: string, baseUrl: string, apiKey: string): Promise<string[]>;
  /** Whether commands can run in the OS sandbox here (probed now), why not, and the extra hidden paths. */
  sandboxStatus(): Promise<SandboxStatus>;
  /** Saves the extra paths the sandbox hides (absolute or ~/); a bad one is refused with a sentence. */
  setSandboxHidden(paths: string[]): Promise<SandboxStatus>;
  /** Saves the host's unix sockets commands may connect to (absolute or ~/; a folder allows those under it); a bad one is refused with a sentence. */
  setSandboxSockets(paths: string[]): Promise<SandboxStatus>;
  /** The language servers Pilot knows for a project and the user's own: found or not, running, version, last error. */
  languageServers(projectId: number): Promise<LanguageServer[]>;
  /** The language servers the user named (name, command, file patterns), as saved. */
  userLanguageServers(): Promise<LanguageServerConfig[]>;
  /** Saves the user's own language servers; an incomplete one is refused with a sentence. */
  setLanguageServers(servers: LanguageServerConfig[]): Promise<LanguageServerConfig[]>;
  listRules(projectId: number): Promise<Rule[]>;
  addRule(projectId: number, tool: string, pattern: string, effect: string): Promise<Rule>;
  deleteRule(projectId: number, ruleId: number): Promise<void>;
  /** The rules the project's settings files bring (Claude Code's and Pilot's settings.json), and the entries ignored with reasons. */
  importedRules(projectId: number): Promise<ImportedRules>;
  /** What Pilot found of the user's setup for the project: hooks, skills, rules, MCP servers, commands (file, scope, state), and the tool names hooks see. */
  setup(projectId: number): Promise<Setup>;

  // MCP servers of the open project
  mcpServers(): Promise<MCPServers>;
  mcpTrustPrompt(): Promise<MCPTrustPrompt>;
  mcpTrust(hash: string): Promise<void>;
  /** Trusts everything the trust prompt showed (its token): .mcp.json's servers, the settings files' allow rules and hooks. */
  trustProject(token: string): Promise<void>;
  mcpSaveServer(input: MCPServerInput): Promise<void>;
  mcpRemoveServer(scope: MCPScope, name: string): Promise<void>;
  mcpSetDisabled(scope: MCPScope, name: string, disabled: boolean): Promise<void>;

  /** Custom slash commands and MCP prompts of the open project, by name. */
  /** Custom commands, MCP prompts and the skills the session (0: none) sees. */
  listSlashCommands(sessionId: number): Promise<SlashCommand[]>;
  /** MCP resources of the open project for the @ picker. */
  findMcpResources(query: string, limit: number): Promise<MCPResource[]>;

  // background jobs (run_bash background: true)
  /** A session's background jobs, running and ended, by id. */
  listJobs(sessionId: number): Promise<Job[]>;
  /** The output Pilot still holds of one job (its last part when it wrote more than the cap). */
  jobOutput(sessionId: number, jobId: string): Promise<JobOutput>;
  /** Stops a job's whole process group (TERM, then KILL). */
  stopJob(sessionId: number, jobId: string): Promise<void>;
}

export const BackendContext = createContext<Backend | null>(null);

export function useBackend(): Backend {
  const b = useContext(BackendContext);
  if (!b) throw new Error("useBackend outside BackendContext.Provider");
  return b;
}
