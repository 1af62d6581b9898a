// The window's Backend: a typed adapter over the bindings Wails generates
// from app.go (frontend/wailsjs). Wails types Go's named string types as
// plain strings; typed() below is the one place where its values take the
// types of ./wire.gen.ts, the contract generated from the same Go.
import * as App from "../../wailsjs/go/main/App";
import { wire } from "../../wailsjs/go/models";
import { EventsOn } from "../../wailsjs/runtime/runtime";
import type { Backend } from "./backend";
import type {
  BranchView,
  ChangeDetail,
  ChangeView,
  CommitResult,
  DirPage,
  FileDiff,
  FilePreview,
  GitStatus,
  Job,
  JobOutput,
  LanguageServer,
  LanguageServerConfig,
  Ledger,
  MCPResource,
  MCPServers,
  MCPTrustPrompt,
  MergeResult,
  MessagePage,
  Project,
  RestoreResult,
  Rule,
  ImportedRules,
  SandboxStatus,
  SearchHit,
  Setup,
  SessionDetail,
  SessionSummary,
  SettingsView,
  SlashCommand,
} from "./wire.gen";

/**
 * Widened is T as Wails types it: every string union a plain string, the
 * rest the same shape. typed<T> accepts a binding's result only when it has
 * every field of the generated type with that type, unions widened (a field
 * the contract has and the binding lacks, or types otherwise, fails to
 * compile here). Narrowing the strings back to the unions is sound because
 * both generators read the same Go fields, whose types are the named enums.
 */
type Widened<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widened<U>[]
    : T extends object
      ? { [K in keyof T]: Widened<T[K]> }
      : T;

function typed<T>(v: Widened<T>): T {
  return v as T;
}


export const wailsBackend: Backend = {
  version: () => App.Version(),
  frontendReady: () => App.FrontendReady(),
  on: (name, cb) => EventsOn(name, cb),
  openExternal: (url) => App.OpenExternal(url),
  quitNow: () => App.QuitNow(),

  listProjects: async () => typed<Project[]>(await App.ListProjects()),
  openProject: async (path) => typed<Project>(await App.OpenProject(path)),
  pickProjectFolder: () => App.PickProjectFolder(),

  gitStatus: async (projectId, sessionId) => typed<GitStatus>(await App.GitStatus(projectId, sessionId)),
  listSessions: async (projectId, limit, offset) => typed<SessionSummary[]>(await App.ListSessions(projectId, limit, offset)),
  getSession: async (id, focus) => typed<SessionDetail>(await App.GetSession(id, focus)),
  olderMessages: async (id, before, from) => typed<MessagePage>(await App.OlderMessages(id, before, from)),
  newSession: async (projectId) => typed<SessionSummary>(await App.NewSession(projectId)),
  newWorktreeSession: async (projectId, name) => typed<SessionSummary>(await App.NewWorktreeSession(projectId, name)),
  discardWorktree: (id) => App.DiscardWorktree(id),
  renameSession: (id, title) => App.RenameSession(id, title),
  deleteSession: (id) => App.DeleteSession(id),
  forkSession: async (id, messageId) => typed<SessionSummary>(await App.ForkSession(id, messageId)),
  exportSession: (id, format) => App.ExportSession(id, format),
  saveSessionExport: (id, format) => App.SaveSessionExport(id, format),
  searchSessions: async (projectId, query) => typed<SearchHit[]>(await App.SearchSessions(projectId, query)),

  sendMessage: (id, text, attachments, images = []) =>
    images.length > 0 ? App.SendMessageWithImages(id, text, attachments, images.map((i) => wire.ImageInput.createFrom(i))) : App.SendMessage(id, text, attachments),
  getImage: (hash) => App.GetImage(hash),
  cancelTurn: (id) => App.CancelTurn(id),
  compactNow: (id) => App.CompactNow(id),
  setSessionMode: async (id, mode) => typed<SessionSummary>(await App.SetSessionMode(id, mode)),
  approvePlan: async (id, mode, plan) => typed<SessionSummary>(await App.ApprovePlan(id, mode, plan)),
  retryTurn: (id) => App.RetryTurn(id),
  reportError: (where, id, message) => App.ReportError(where, id, message),

  getChange: async (approvalId) => typed<ChangeView>(await App.GetChange(approvalId)),
  proposedText: (approvalId, path) => App.ProposedText(approvalId, path),
  decideChange: (approvalId, d) => App.DecideChange(approvalId, wire.ChangeDecision.createFrom(d)),
  decideCommand: (approvalId, d) => App.DecideCommand(approvalId, wire.CommandDecision.createFrom(d)),

  getLedger: async (sessionId) => typed<Ledger>(await App.GetLedger(sessionId)),
  getFileDiff: async (sessionId, path) => typed<FileDiff>(await App.GetFileDiff(sessionId, path)),
  getCheckpointDiff: async (checkpointId, path) => typed<FileDiff>(await App.GetCheckpointDiff(checkpointId, path)),
  getChangeDetail: async (sessionId, toolCallId) => typed<ChangeDetail>(await App.GetChangeDetail(sessionId, toolCallId)),
  revertCheckpoint: async (checkpointId, input) => typed<RestoreResult>(await App.RevertCheckpoint(checkpointId, wire.RestoreInput.createFrom(input))),
  revertFile: async (sessionId, path, input) => typed<RestoreResult>(await App.RevertFile(sessionId, path, wire.RestoreInput.createFrom(input))),
  rewind: async (sessionId, messageId, mode, input) => typed<RestoreResult>(await App.Rewind(sessionId, messageId, mode, wire.RestoreInput.createFrom(input))),

  getBranch: async (id) => typed<BranchView>(await App.GetBranch(id)),
  mergeBranch: async (id, m) => typed<MergeResult>(await App.MergeBranch(id, wire.BranchMerge.createFrom(m))),
  draftCommitMessage: (id) => App.DraftCommitMessage(id),
  commitSession: async (id, message) => typed<CommitResult>(await App.CommitSession(id, message)),

  listDir: async (projectId, sessionId, q) => typed<DirPage>(await App.ListDir(projectId, sessionId, wire.DirPageQuery.createFrom(q))),
  readProjectFile: async (projectId, sessionId, path) => typed<FilePreview>(await App.ReadProjectFile(projectId, sessionId, path)),
  findFiles: (projectId, sessionId, query, limit) => App.FindFiles(projectId, sessionId, query, limit),

  getSettings: async () => typed<SettingsView>(await App.GetSettings()),
  saveSettings: async (input) => typed<SettingsView>(await App.SaveSettings(wire.SettingsInput.createFrom(input))),
  listModels: (provider, baseUrl, apiKey) => App.ListModels(provider, baseUrl, apiKey),
  sandboxStatus: async () => typed<SandboxStatus>(await App.SandboxStatus()),
  setSandboxHidden: async (paths) => typed<SandboxStatus>(await App.SetSandboxHidden(paths)),
  setSandboxSockets: async (paths) => typed<SandboxStatus>(await App.SetSandboxSockets(paths)),
  languageServers: async (projectId) => typed<LanguageServer[]>(await App.LanguageServers(projectId)),
  userLanguageServers: async () => typed<LanguageServerConfig[]>(await App.UserLanguageServers()),
  setLanguageServers: async (servers) => typed<LanguageServerConfig[]>(await App.SetLanguageServers(servers.map((x) => wire.LanguageServerConfig.createFrom(x)))),
  listRules: async (projectId) => typed<Rule[]>(await App.ListRules(projectId)),
  addRule: async (projectId, tool, pattern, effect) => typed<Rule>(await App.AddRule(projectId, tool, pattern, effect)),
  deleteRule: (projectId, id) => App.DeleteRule(projectId, id),
  importedRules: async (projectId) => typed<ImportedRules>(await App.ImportedRules(projectId)),
  setup: async (projectId) => typed<Setup>(await App.Setup(projectId)),

  mcpServers: async () => typed<MCPServers>(await App.MCPServers()),
  mcpTrustPrompt: async () => typed<MCPTrustPrompt>(await App.MCPTrustPrompt()),
  mcpTrust: (hash) => App.MCPTrust(hash),
  trustProject: (token) => App.TrustProject(token),
  mcpSaveServer: (input) => App.MCPSaveServer(wire.MCPServerInput.createFrom(input)),
  mcpRemoveServer: (scope, name) => App.MCPRemoveServer(scope, name),
  mcpSetDisabled: (scope, name, disabled) => App.MCPSetDisabled(scope, name, disabled),

  listSlashCommands: async (sessionId) => typed<SlashCommand[]>(await App.ListSlashCommands(sessionId)),
  findMcpResources: async (query, limit) => typed<MCPResource[]>(await App.FindMCPResources(query, limit)),

  listJobs: async (sessionId) => typed<Job[]>(await App.ListJobs(sessionId)),
  jobOutput: async (sessionId, jobId) => typed<JobOutput>(await App.JobOutput(sessionId, jobId)),
  stopJob: (sessionId, jobId) => App.StopJob(sessionId, jobId),
};
