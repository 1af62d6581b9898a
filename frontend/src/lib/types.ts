// Mirrors backend/wire/views.go and bound.go: what the window renders and
// what bound methods return or take.

export type AgentState = "idle" | "streaming" | "awaiting_approval" | "tool_executing" | "error";
export type ToolStatus = "running" | "awaiting_approval" | "done" | "error" | "rejected" | "cancelled";
export type MessageState = "complete" | "streaming" | "interrupted";
export type BlockType = "text" | "thinking" | "tool_use" | "tool_result" | "image";
/**
 * What an approval asks (backend/wire/views.go's Approval* constants):
 * a file change (hunks, decideChange) or a yes/no of its kind (decideCommand).
 * plan is reserved for the plan card; outside_sandbox is a command asking to
 * run outside the OS sandbox, network a sandboxed command's connection to a
 * host not allowed yet.
 */
export type ApprovalKind = "change" | "command" | "mcp" | "fetch" | "budget" | "plan" | "outside_sandbox" | "network";
export type ApprovalOutcome = "approved" | "partial" | "edited" | "rejected" | "withdrawn" | "cancelled";
export type NoticeKind = "retry" | "compacted" | "loop_guard" | "limit" | "budget" | "stale" | "mcp" | "rule";
export type TurnEndReason = "end_turn" | "cancelled" | "error" | "limit" | "loop_guard" | "budget" | "max_tokens" | "plan";
export type DiffLineKind = "context" | "add" | "del";
export type SearchHitKind = "message" | "tool_input" | "tool_output" | "path";
export type RuleEffect = "allow" | "deny";
/** The default mode of new sessions (Settings): any mode the session control offers. */
export type ApprovalMode = "plan" | "ask" | "edits" | "all" | "none";
/** A session's mode: plan (read-only tools, the turn ends with a plan) or an approval mode. */
export type SessionMode = "plan" | "ask" | "edits" | "all" | "none";
export type TodoStatus = "pending" | "in_progress" | "done";

/** One task of the session's list (todo_write). */
export interface TodoItem {
  content: string;
  status: TodoStatus;
}
export type ValueSource = "env" | "dotenv" | "settings" | "default";

export interface Block {
  type: BlockType;
  text?: string;
  /** A user's text block as typed ("/hello Ada") when text is the slash command's expansion the model read. */
  command?: string;
  id?: string;
  name?: string;
  input?: unknown;
  toolUseId?: string;
  isError?: boolean;
  /** An image: fetched by hash with getImage, never pushed inline. */
  hash?: string;
  mediaType?: string;
  /** A tool result's images. */
  images?: Block[];
}

/** An image attached to a prompt: its media type and its bytes in base64. */
export interface ImageInput {
  mediaType: string;
  data: string;
}

/** A stored image, as a data: URL. */
export interface ImageView {
  hash: string;
  mediaType: string;
  dataUrl: string;
}

export interface Message {
  id: number;
  role: "user" | "assistant";
  blocks: Block[];
  state: MessageState;
  createdAt: number;
}

export interface ToolCall {
  id: string;
  messageId: number;
  /** The task call whose helper made this call; shown nested under its card. */
  parentId?: string;
  name: string;
  label: string;
  input: unknown;
  status: ToolStatus;
  output: string;
  isError: boolean;
  approvalId?: string;
  startedAt: number;
  finishedAt?: number;
  /** What became of a file change once decided. */
  change?: ChangeSummary;
  /** The files an approved command changed. */
  effects?: CommandEffects;
  /** Who refused a rejected call: you, plan mode, the approval mode or a deny rule (absent when not known). */
  refusedBy?: RefusedBy;
  /** The deny rule that refused it, as "tool \"pattern\"" (refusedBy "rule"). */
  refusedRule?: string;
  /** How a command ran with respect to the OS sandbox (run_bash only). */
  sandbox?: SandboxInfo;
}

/** How a command ran with respect to the OS sandbox, kept with the call. */
export interface SandboxInfo {
  /** It ran in the session's sandbox. */
  sandboxed: boolean;
  /** The model asked to run it outside the sandbox (sandbox: false), for reason. */
  outside?: boolean;
  reason?: string;
  /** The sandbox could not start on this machine: why, and what to install. */
  unavailable?: string;
  /** Sentences on what the sandbox blocked. */
  blocked?: string[];
}

/** The OS sandbox as Settings shows it (SandboxStatus). */
export interface SandboxStatus {
  ready: boolean;
  /** Not ready: why, and what to install or change. */
  why?: string;
  bwrap?: string;
  bwrapVersion?: string;
  userNamespaces: string;
  landlockAbi: number;
  /** The extra paths hidden from commands. */
  hidden: string[];
}

export type RefusedBy = "user" | "plan" | "mode" | "rule";

export interface Approval {
  id: string;
  kind: ApprovalKind;
  toolCallId: string;
  tool: string;
  paths?: string[];
  command?: string;
  cwd?: string;
  timeoutSeconds?: number;
  /** An MCP tool call: the server, its own name of the tool, the arguments (JSON). */
  server?: string;
  mcpTool?: string;
  arguments?: string;
  /** web_fetch: the host to allow (command is "Fetch URL"); network: the host a sandboxed command wants to reach, with port. */
  host?: string;
  port?: number;
  /** outside_sandbox: the model's reason for running the command outside the sandbox. */
  reason?: string;
  /** Why the command would run outside the sandbox although the mode promised it: the sandbox cannot start here. */
  noSandbox?: string;
  /** The rules "always allow" adds, shown before the user chooses. */
  alwaysRules?: string[];
  /** Set when "always allow" is not offered (no rule can allow the call): why. */
  noAlways?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  costKnown: boolean;
  contextTokens: number;
  contextWindow: number;
}

export interface SessionSummary {
  id: number;
  projectId: number;
  title: string;
  provider: string;
  model: string;
  createdAt: number;
  updatedAt: number;
  tokens: number;
  costUsd: number;
  state: string;
  /** The session's mode (SessionMode; a string as the bindings type it). */
  approvalMode: string;
}

export interface Project {
  id: number;
  path: string;
  name: string;
  lastOpened: number;
}

export interface SessionDetail {
  /** The last event seq whose effect the snapshot contains: apply only later events. */
  seq: number;
  session: SessionSummary;
  messages: Message[];
  toolCalls: ToolCall[];
  pending: Approval[];
  usage: Usage;
  state: AgentState;
  /** The session's task list ([] when it has none). */
  todos: TodoItem[];
  /** Whether messages precede `messages` (the last page): read them with olderMessages. */
  hasOlder: boolean;
}

/** A run of a session's messages before those the window has, with their tool calls. */
export interface MessagePage {
  messages: Message[];
  toolCalls: ToolCall[];
  hasOlder: boolean;
}

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNo?: number;
  newNo?: number;
}

export interface Hunk {
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface FileChange {
  path: string;
  isNew: boolean;
  /** The proposal leaves the file empty. Its text is fetched only to edit it (proposedText). */
  emptied: boolean;
  hunks: Hunk[];
}

export interface ChangeView {
  approvalId: string;
  tool: string;
  files: FileChange[];
}

export interface FileDecision {
  path: string;
  hunks: boolean[];
  editedText?: string;
}

export interface ChangeDecision {
  files: FileDecision[];
  feedback: string;
  alwaysAllow: boolean;
}

export interface CommandDecision {
  approve: boolean;
  feedback: string;
  alwaysAllow: boolean;
}

export interface SearchHit {
  sessionId: number;
  sessionTitle: string;
  messageId: number;
  kind: SearchHitKind;
  snippet: string;
}

/** Asks ListDir for one page of a folder (backend/wire DirPageQuery). */
export interface DirPageQuery {
  dir: string;
  /** The collation locale the entries are ordered by (the window's Intl.Collator's). */
  locale: string;
  offset: number;
  limit: number;
  /** The listing the window's other pages of the folder come from; 0 lists it afresh. */
  version: number;
}

/** One page of a folder: folders first, then files, each in the locale's order. */
export interface DirPage {
  dir: string;
  /** Pages of another version are from before or after a change to the folder. */
  version: number;
  total: number;
  offset: number;
  entries: TreeEntry[];
}

/** One entry of a DirPage: a name and its marks (absent when false). */
export interface TreeEntry {
  name: string;
  dir?: boolean;
  link?: boolean;
  changed?: boolean;
}

/** One row of the file tree, made from a TreeEntry (lib/treePages.ts). */
export interface FileEntry {
  path: string;
  name: string;
  isDir: boolean;
  isLink: boolean;
  changed: boolean;
}

export interface FilePreview {
  path: string;
  text: string;
  binary: boolean;
  truncated: boolean;
  size: number;
}

export interface Rule {
  id: number;
  tool: string;
  pattern: string;
  effect: RuleEffect;
  /** Why the rule can never match, in a sentence; "" when it is valid. */
  invalid: string;
}

/** A known server; its id is the provider saved. */
export interface Preset {
  id: string;
  name: string;
  /** The protocol it speaks: "anthropic" or "openai". */
  provider: string;
  baseUrl: string;
  needsKey: boolean;
  model?: string;
  local: boolean;
  /** The environment variable its key is read from. */
  keyEnv?: string;
  /** Where its key is now: "env" (keyEnv is set), "dotenv" (TS_AGENT_API_KEY in a .env), "settings" (saved here), or absent. */
  keySource?: "env" | "dotenv" | "settings";
  /** The key, masked. */
  keyHint?: string;
  savedBaseUrl?: string;
}

export interface SettingsView {
  provider: string;
  model: string;
  baseUrl: string;
  hasKey: boolean;
  keyHint: string;
  approvalMode: ApprovalMode;
  /** Extended thinking (Anthropic only): tokens per model call, 0 for off. */
  thinkingBudget: number;
  budgetTokens: number;
  budgetUsd: number;
  /** Checkpoint content kept per project, in MiB; the oldest sessions' content goes first. */
  checkpointRetentionMb: number;
  /** Seconds before an MCP tool call is given up (and the server told to cancel). */
  mcpTimeoutSeconds: number;
  helperConcurrency: number;
  /** Desktop notifications when an approval waits or a turn ends while the window is not in front. */
  notifications: boolean;
  /** Bytes of checkpoint content the open project uses now (0 with no project). */
  checkpointUsageBytes: number;
  source: Record<string, ValueSource>;
  /** The environment variable or file a value was read from. */
  sourceFrom: Record<string, string>;
  presets: Preset[];
  /** Problems with saved files, one sentence each. */
  warnings: string[];
  needsOnboarding: boolean;
}

export interface SettingsInput {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  clearKey: boolean;
  approvalMode: ApprovalMode;
  /** Tokens, 0 for off; at least 1024 otherwise. */
  thinkingBudget: number;
  budgetTokens: number;
  budgetUsd: number;
  checkpointRetentionMb: number;
  /** 1-3600 seconds. */
  mcpTimeoutSeconds: number;
  helperConcurrency: number;
  /** Desktop notifications on or off (absent: keep). */
  notifications?: boolean;
}

/** What closing the window would stop (app:confirm_quit). */
export interface WorkInFlight {
  /** Titles of the sessions whose turn runs. */
  sessions: string[];
  /** Approvals waiting among them. */
  waiting: number;
}

// The change ledger (backend/wire/ledger.go).

export type LedgerOp = "created" | "modified" | "deleted";
export type CheckpointKind = "edit" | "command" | "revert" | "rewind";
export type RewindMode = "code" | "both" | "conversation";
export type Resolution = "mine" | "checkpoint";
export type HunkDecisionState = "approved" | "rejected" | "pending";

export interface FileEffect {
  path: string;
  op: LedgerOp;
  /** false: the content was not stored (over the size limit, or removed by retention); not revertable. */
  kept: boolean;
  why?: string;
}

export interface Checkpoint {
  id: number;
  kind: CheckpointKind;
  toolCallId?: string;
  messageId: number;
  label: string;
  note?: string;
  omitted?: number;
  files: FileEffect[];
  undone: boolean;
  createdAt: number;
}

export interface LedgerFile {
  path: string;
  /** Net effect from before the session to now; "" when back to how it was. */
  kind: LedgerOp | "";
  checkpoints: number[];
  revertable: boolean;
}

export interface Ledger {
  sessionId: number;
  files: LedgerFile[];
  checkpoints: Checkpoint[];
}

export interface FileDiff {
  path: string;
  oldExists: boolean;
  newExists: boolean;
  oldText: string;
  newText: string;
  binary: boolean;
  missing?: string;
  hunks: Hunk[];
}

export interface AppliedFile {
  path: string;
  op: LedgerOp;
  decisions: HunkDecisionState[];
  applied: number;
  total: number;
  edited: boolean;
  written: boolean;
}

export interface ChangeSummary {
  checkpointId?: number;
  applied: number;
  total: number;
  edited: boolean;
  files: AppliedFile[];
  undone: boolean;
  /** A crash interrupted the writing: "completed on restart", "undone on restart" or "not applied". */
  recovery?: string;
}

export interface CommandEffects {
  checkpointId: number;
  files: FileEffect[];
  omitted?: number;
  note?: string;
  undone: boolean;
}

export interface ChangeDetail {
  summary: ChangeSummary;
  proposed: FileChange[];
  applied: FileDiff[];
}

export interface Conflict {
  path: string;
  /** oldText: what Pilot last wrote; newText: the file on disk now. */
  mine: FileDiff;
  /** newText: the version the restore would write. */
  checkpoint: FileDiff;
}

export interface RestoreInput {
  resolutions: Record<string, Resolution>;
}

export interface RestoreResult {
  done: boolean;
  conflicts: Conflict[];
  restored: FileEffect[];
  kept: string[];
  /** Files that could not be restored: their earlier content was not kept (why says why). */
  missing: FileEffect[];
  checkpointId: number;
  sessionId: number;
  message: string;
}

export type McpState = "starting" | "ready" | "failed" | "disabled";
export type McpScope = "user" | "project";

export interface McpTool {
  name: string;
  tool: string;
  description: string;
}

/** A configured MCP server: its configuration as written and its state. */
export interface McpServer {
  name: string;
  scope: McpScope;
  transport: "stdio" | "http" | "sse";
  display: string;
  state: McpState;
  error: string;
  tools: McpTool[];
  stderr: string[];
  restarts: number;
  command: string;
  args: string[] | null;
  env: Record<string, string> | null;
  cwd: string;
  url: string;
  headers: Record<string, string> | null;
  disabled: boolean;
}

export interface McpServers {
  project: string;
  configError: string;
  servers: McpServer[];
}

export interface McpServerInput {
  scope: McpScope;
  name: string;
  type: "stdio" | "http" | "sse";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  url: string;
  headers: Record<string, string>;
}

export interface McpTrustPrompt {
  needed: boolean;
  project: string;
  path: string;
  hash: string;
  servers: { name: string; display: string }[];
  changed: boolean;
}

/** A command of the / picker: a custom command, an MCP prompt, or built in. */
export interface SlashCommand {
  name: string;
  description: string;
  argumentHint: string;
  source: "builtin" | "project" | "project-claude" | "user" | "mcp";
}

/** An MCP server's resource, attached with @ as "mcp:<server>:<uri>". */
export interface McpResource {
  server: string;
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}
