// The window's Backend: a typed adapter over the bindings Wails generates
// from app.go (frontend/wailsjs). Go's string enums arrive as plain strings;
// this is the one place where they are narrowed to the unions of ./types.
import * as App from "../../wailsjs/go/main/App";
import { wire } from "../../wailsjs/go/models";
import { EventsOn } from "../../wailsjs/runtime/runtime";
import type { Backend } from "./backend";
import type {
  ChangeDetail,
  ChangeView,
  FileDiff,
  Ledger,
  RestoreResult,
  DirPage,
  FilePreview,
  McpResource,
  McpServers,
  McpTrustPrompt,
  MessagePage,
  Project,
  Rule,
  SearchHit,
  SessionDetail,
  SessionSummary,
  SandboxStatus,
  SettingsView,
  SlashCommand,
} from "./types";

export const wailsBackend: Backend = {
  version: () => App.Version(),
  frontendReady: () => App.FrontendReady(),
  on: (name, cb) => EventsOn(name, cb),
  openExternal: (url) => App.OpenExternal(url),
  quitNow: () => App.QuitNow(),

  listProjects: (): Promise<Project[]> => App.ListProjects(),
  openProject: (path): Promise<Project> => App.OpenProject(path),
  pickProjectFolder: () => App.PickProjectFolder(),

  listSessions: (projectId, limit, offset): Promise<SessionSummary[]> => App.ListSessions(projectId, limit, offset),
  getSession: async (id, focus) => (await App.GetSession(id, focus)) as SessionDetail,
  olderMessages: async (id, before, from) => (await App.OlderMessages(id, before, from)) as MessagePage,
  newSession: (projectId): Promise<SessionSummary> => App.NewSession(projectId),
  renameSession: (id, title) => App.RenameSession(id, title),
  deleteSession: (id) => App.DeleteSession(id),
  forkSession: (id, messageId): Promise<SessionSummary> => App.ForkSession(id, messageId),
  exportSession: (id, format) => App.ExportSession(id, format),
  saveSessionExport: (id, format) => App.SaveSessionExport(id, format),
  searchSessions: async (projectId, query) => (await App.SearchSessions(projectId, query)) as SearchHit[],

  sendMessage: (id, text, attachments, images = []) =>
    images.length > 0 ? App.SendMessageWithImages(id, text, attachments, images.map((i) => wire.ImageInput.createFrom(i))) : App.SendMessage(id, text, attachments),
  getImage: (hash) => App.GetImage(hash),
  cancelTurn: (id) => App.CancelTurn(id),
  compactNow: (id) => App.CompactNow(id),
  setSessionMode: (id, mode): Promise<SessionSummary> => App.SetSessionMode(id, mode),
  approvePlan: (id, mode, plan): Promise<SessionSummary> => App.ApprovePlan(id, mode, plan),
  retryTurn: (id) => App.RetryTurn(id),
  reportError: (where, id, message) => App.ReportError(where, id, message),

  getChange: async (approvalId) => (await App.GetChange(approvalId)) as ChangeView,
  proposedText: (approvalId, path) => App.ProposedText(approvalId, path),
  decideChange: (approvalId, d) => App.DecideChange(approvalId, wire.ChangeDecision.createFrom(d)),
  decideCommand: (approvalId, d) => App.DecideCommand(approvalId, wire.CommandDecision.createFrom(d)),

  getLedger: async (sessionId) => (await App.GetLedger(sessionId)) as Ledger,
  getFileDiff: async (sessionId, path) => (await App.GetFileDiff(sessionId, path)) as FileDiff,
  getCheckpointDiff: async (checkpointId, path) => (await App.GetCheckpointDiff(checkpointId, path)) as FileDiff,
  getChangeDetail: async (sessionId, toolCallId) => (await App.GetChangeDetail(sessionId, toolCallId)) as ChangeDetail,
  revertCheckpoint: async (checkpointId, input) => (await App.RevertCheckpoint(checkpointId, wire.RestoreInput.createFrom(input))) as RestoreResult,
  revertFile: async (sessionId, path, input) => (await App.RevertFile(sessionId, path, wire.RestoreInput.createFrom(input))) as RestoreResult,
  rewind: async (sessionId, messageId, mode, input) => (await App.Rewind(sessionId, messageId, mode, wire.RestoreInput.createFrom(input))) as RestoreResult,

  listDir: async (projectId, q): Promise<DirPage> => (await App.ListDir(projectId, wire.DirPageQuery.createFrom(q))) as DirPage,
  readProjectFile: (projectId, path): Promise<FilePreview> => App.ReadProjectFile(projectId, path),
  findFiles: (projectId, query, limit) => App.FindFiles(projectId, query, limit),

  getSettings: async () => (await App.GetSettings()) as SettingsView,
  saveSettings: async (input) => (await App.SaveSettings(wire.SettingsInput.createFrom(input))) as SettingsView,
  listModels: (provider, baseUrl, apiKey) => App.ListModels(provider, baseUrl, apiKey),
  sandboxStatus: async () => (await App.SandboxStatus()) as SandboxStatus,
  setSandboxHidden: async (paths) => (await App.SetSandboxHidden(paths)) as SandboxStatus,
  listRules: async (projectId) => (await App.ListRules(projectId)) as Rule[],
  addRule: async (projectId, tool, pattern, effect) => (await App.AddRule(projectId, tool, pattern, effect)) as Rule,
  deleteRule: (id) => App.DeleteRule(id),

  mcpServers: async () => (await App.MCPServers()) as McpServers,
  mcpTrustPrompt: async () => (await App.MCPTrustPrompt()) as McpTrustPrompt,
  mcpTrust: (hash) => App.MCPTrust(hash),
  mcpSaveServer: (input) => App.MCPSaveServer(wire.MCPServerInput.createFrom(input)),
  mcpRemoveServer: (scope, name) => App.MCPRemoveServer(scope, name),
  mcpSetDisabled: (scope, name, disabled) => App.MCPSetDisabled(scope, name, disabled),

  listSlashCommands: async () => (await App.ListSlashCommands()) as SlashCommand[],
  findMcpResources: (query, limit): Promise<McpResource[]> => App.FindMCPResources(query, limit),
};
