package wire

// The closed sets of values that cross the bridge. Each is a named string
// type with a constant per value; the generator (backend/wire/gen) writes
// each as a TypeScript string union plus a list of its values, so a value
// added or renamed here reaches the window's type checker. Packages below
// keep their own typed values (agent.State, store.Approval, ...) and
// convert at the edge where they build a payload.

// AgentStatus is where a session's agent stands (StatePayload,
// SessionDetail).
type AgentStatus string

// Agent states.
const (
	StateIdle             AgentStatus = "idle"
	StateStreaming        AgentStatus = "streaming"
	StateAwaitingApproval AgentStatus = "awaiting_approval"
	StateToolExecuting    AgentStatus = "tool_executing"
	StateError            AgentStatus = "error"
)

// SessionState is a session's state as last saved (SessionSummary).
type SessionState string

// Session states.
const (
	SessionIdle        SessionState = "idle"        // no turn running
	SessionRunning     SessionState = "running"     // a turn is running
	SessionInterrupted SessionState = "interrupted" // a turn was cut off (crash, kill, cancel)
	SessionError       SessionState = "error"       // the last turn failed
)

// TodoStatus is the state of one task of a session's list.
type TodoStatus string

// Task states.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoDone       TodoStatus = "done"
)

// ApprovalOutcome is how a pending decision ended (ApprovalDonePayload):
// the user's answer, as backend/approval words it, or cancelled with the
// turn.
type ApprovalOutcome string

// Approval outcomes.
const (
	OutcomeApproved  ApprovalOutcome = "approved"
	OutcomePartial   ApprovalOutcome = "partial"
	OutcomeEdited    ApprovalOutcome = "edited"
	OutcomeRejected  ApprovalOutcome = "rejected"
	OutcomeCancelled ApprovalOutcome = "cancelled"
)

// NoticeKind is what an informational line in the chat is about
// (NoticePayload).
type NoticeKind string

// Notice kinds.
const (
	NoticeRetry     NoticeKind = "retry"     // a model call is retried (RetryInMs, Reason)
	NoticeCompacted NoticeKind = "compacted" // the conversation was compacted
	NoticeLoopGuard NoticeKind = "loop_guard"
	NoticeLimit     NoticeKind = "limit"
	NoticeBudget    NoticeKind = "budget"
	NoticeStale     NoticeKind = "stale" // a file changed on disk after a proposal
	NoticeMCP       NoticeKind = "mcp"
	NoticeRule      NoticeKind = "rule" // "always allow" did not store a rule
	NoticeWait      NoticeKind = "wait" // a call waits for another session's work in the same folder
)

// NoticeSkills: a SKILL.md is not used, and why.
const NoticeSkills NoticeKind = "skills"

// NoticeContext: the server has the model loaded with a context smaller
// than the conversation, and will cut the conversation's start without
// saying so; the text says how to raise it.
const NoticeContext NoticeKind = "context"

// NoticeAgents: a custom agent's file is not used, and why.
const NoticeAgents NoticeKind = "agents"

// NoticeFiles: a project file Pilot reads for itself (an instruction file
// of the system prompt) was not read: a link out of the project, not a
// regular file; the text names it and what to do.
const NoticeFiles NoticeKind = "files"

// ErrorKind classifies a failed turn (ErrorPayload): the provider's typed
// errors (llm.Kind) or internal.
type ErrorKind string

// Error kinds: llm.Kind's values, and internal for everything else.
const (
	ErrorAuth            ErrorKind = "auth"
	ErrorPermission      ErrorKind = "permission"
	ErrorNotFound        ErrorKind = "not_found"
	ErrorBadRequest      ErrorKind = "bad_request"
	ErrorContextTooLong  ErrorKind = "context_too_long"
	ErrorTooLarge        ErrorKind = "too_large"
	ErrorRateLimit       ErrorKind = "rate_limit"
	ErrorOverloaded      ErrorKind = "overloaded"
	ErrorServer          ErrorKind = "server"
	ErrorNetwork         ErrorKind = "network"
	ErrorCancelled       ErrorKind = "cancelled"
	ErrorStreamCut       ErrorKind = "stream_cut"
	ErrorStalled         ErrorKind = "stalled"
	ErrorInvalidResponse ErrorKind = "invalid_response"
	ErrorRefusal         ErrorKind = "refusal"
	ErrorInternal        ErrorKind = "internal"
)

// TurnEndReason is why a turn ended (TurnDonePayload).
type TurnEndReason string

// Turn end reasons.
const (
	EndTurn      TurnEndReason = "end_turn"
	EndCancelled TurnEndReason = "cancelled"
	EndError     TurnEndReason = "error"
	EndLimit     TurnEndReason = "limit"
	EndLoopGuard TurnEndReason = "loop_guard"
	EndBudget    TurnEndReason = "budget"
	EndMaxTokens TurnEndReason = "max_tokens"
	EndPlan      TurnEndReason = "plan" // the turn ended with a plan (plan mode)
)

// BlockType is the kind of one content block of a message.
type BlockType string

// Block types.
const (
	BlockText       BlockType = "text"
	BlockThinking   BlockType = "thinking"
	BlockToolUse    BlockType = "tool_use"
	BlockToolResult BlockType = "tool_result"
	BlockImage      BlockType = "image"
)

// Role is who wrote a message.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// MessageState is whether a message is whole.
type MessageState string

// Message states.
const (
	MessageComplete    MessageState = "complete"
	MessageStreaming   MessageState = "streaming"
	MessageInterrupted MessageState = "interrupted"
)

// ToolStatus is the state of a tool call card.
type ToolStatus string

// Tool call states.
const (
	ToolRunning          ToolStatus = "running"
	ToolAwaitingApproval ToolStatus = "awaiting_approval"
	ToolDone             ToolStatus = "done"
	ToolError            ToolStatus = "error"
	ToolRejected         ToolStatus = "rejected"
	ToolCancelled        ToolStatus = "cancelled"
)

// RefusedBy says who refused a rejected tool call ("" when not refused or
// not known).
type RefusedBy string

// Who refused a call.
const (
	RefusedByUser RefusedBy = "user"
	RefusedByPlan RefusedBy = "plan" // plan mode
	RefusedByMode RefusedBy = "mode" // the approval mode
	RefusedByRule RefusedBy = "rule" // a deny rule (ToolCall.RefusedRule)
	RefusedByHook RefusedBy = "hook" // a PreToolUse hook (ToolCall.RefusedRule: its command)
)

// ApprovalKind is what the user is asked to decide (Approval.Kind).
type ApprovalKind string

// Kinds of approval. The review panel switches on them.
const (
	// ApprovalChange: a file change (write_file, patch_file, multi_patch),
	// its hunks fetched with GetChange, answered with DecideChange.
	ApprovalChange ApprovalKind = "change"
	// ApprovalCommand: a run_bash command.
	ApprovalCommand ApprovalKind = "command"
	// ApprovalMCP: a call of an MCP server's tool.
	ApprovalMCP ApprovalKind = "mcp"
	// ApprovalFetch: a web_fetch of a host not yet allowed, or a
	// web_search through a search service not yet allowed.
	ApprovalFetch ApprovalKind = "fetch"
	// ApprovalBudget: whether a turn may go past the session's budget.
	ApprovalBudget ApprovalKind = "budget"
	// ApprovalPlan: a plan presented in plan mode, waiting in the inbox
	// (InboxItem, its Reason the plan) while its card in the chat offers
	// it; answered as the card does (ApprovePlan, or a message to keep
	// planning), never through the broker.
	ApprovalPlan ApprovalKind = "plan"
	// ApprovalOutsideSandbox: a run_bash command asking to run outside
	// the OS sandbox (sandbox: false), with the model's Reason.
	ApprovalOutsideSandbox ApprovalKind = "outside_sandbox"
	// ApprovalNetwork: a sandboxed command's connection to a host not yet
	// allowed (Host, Port; ToolCallID is the running command's).
	ApprovalNetwork ApprovalKind = "network"
	// ApprovalElicitation: an MCP server asks the user for input while
	// its tool call runs (Elicitation; ToolCallID is that call's),
	// answered with DecideElicitation, on the call's card.
	ApprovalElicitation ApprovalKind = "elicitation"
)

// ElicitAction is the answer to an MCP server's elicitation, as the
// specification names it.
type ElicitAction string

// Elicitation answers.
const (
	ElicitAccept  ElicitAction = "accept"  // sent with the form's content
	ElicitDecline ElicitAction = "decline" // the user said no
	ElicitCancel  ElicitAction = "cancel"  // dismissed: the turn was stopped
)

// ElicitFieldType is the kind of an elicitation form's field.
type ElicitFieldType string

// Field kinds: the primitives the specification allows, and a
// multi-select (an array of a string enum).
const (
	FieldString  ElicitFieldType = "string"
	FieldNumber  ElicitFieldType = "number"
	FieldInteger ElicitFieldType = "integer"
	FieldBoolean ElicitFieldType = "boolean"
	FieldMulti   ElicitFieldType = "multi"
)

// ApprovalMode is a session's mode, and the default mode of new sessions
// (Settings): plan (read-only tools, the turn ends with a plan) or how
// much runs without asking.
type ApprovalMode string

// Modes.
const (
	ModePlan  ApprovalMode = "plan"
	ModeAsk   ApprovalMode = "ask"
	ModeEdits ApprovalMode = "edits"
	ModeAll   ApprovalMode = "all"
	ModeNone  ApprovalMode = "none"
)

// SlashSource is where a slash command comes from.
type SlashSource string

// Slash command sources.
const (
	SlashProject       SlashSource = "project"        // .pilot/commands
	SlashProjectClaude SlashSource = "project-claude" // .claude/commands
	SlashUser          SlashSource = "user"           // PILOT_HOME/commands
	SlashUserClaude    SlashSource = "user-claude"    // ~/.claude/commands
	SlashMCP           SlashSource = "mcp"            // an MCP server's prompt
	SlashSkill         SlashSource = "skill"          // a skill (SKILL.md): "/name args" asks the model to use it
)

// DiffLineKind is the kind of one line of a hunk.
type DiffLineKind string

// Diff line kinds.
const (
	LineContext DiffLineKind = "context"
	LineAdd     DiffLineKind = "add"
	LineDel     DiffLineKind = "del"
)

// SearchHitKind is where a search hit was found.
type SearchHitKind string

// Search hit kinds.
const (
	HitMessage    SearchHitKind = "message"
	HitToolInput  SearchHitKind = "tool_input"
	HitToolOutput SearchHitKind = "tool_output"
	HitPath       SearchHitKind = "path"
	HitWebPage    SearchHitKind = "web_page" // a page web_fetch read
)

// RuleEffect is what a permission rule does.
type RuleEffect string

// Rule effects.
const (
	EffectAllow RuleEffect = "allow"
	EffectDeny  RuleEffect = "deny"
	// EffectAsk: the call is asked every time (a settings file's
	// permissions.ask; Pilot stores no ask rules of its own).
	EffectAsk RuleEffect = "ask"
)

// TrustKind is what a section of the trust prompt shows.
type TrustKind string

// Trust prompt sections.
const (
	TrustMCP   TrustKind = "mcp"   // the servers .mcp.json would start
	TrustRules TrustKind = "rules" // the allow rules a settings file would apply
	TrustHooks TrustKind = "hooks" // the hook commands a settings file would run
)

// ValueSource is where a setting's value comes from (SettingsView.Source).
type ValueSource string

// Value sources.
const (
	SourceEnv      ValueSource = "env"
	SourceDotEnv   ValueSource = "dotenv"
	SourceSettings ValueSource = "settings"
	SourceDefault  ValueSource = "default"
)

// KeySource is where a preset's key is read from now ("" when there is
// none).
type KeySource string

// Key sources.
const (
	KeyFromEnv      KeySource = "env"      // Preset.KeyEnv is set
	KeyFromDotEnv   KeySource = "dotenv"   // TS_AGENT_API_KEY in a .env file
	KeyFromSettings KeySource = "settings" // saved in Settings
)

// Protocol is the API a provider speaks (Preset.Provider).
type Protocol string

// Protocols.
const (
	ProtocolAnthropic Protocol = "anthropic"
	ProtocolOpenAI    Protocol = "openai"
)

// LedgerOp is what a checkpoint did to a file, or a file's net effect
// over a session.
type LedgerOp string

// Ledger ops.
const (
	OpCreated  LedgerOp = "created"
	OpModified LedgerOp = "modified"
	OpDeleted  LedgerOp = "deleted"
	// OpNone: LedgerFile.Kind of a file back to what it was before the
	// session.
	OpNone LedgerOp = ""
)

// CheckpointKind is what a checkpoint recorded.
type CheckpointKind string

// Checkpoint kinds.
const (
	CheckpointEdit    CheckpointKind = "edit"    // an approved write_file, patch_file or multi_patch
	CheckpointCommand CheckpointKind = "command" // an approved run_bash
	CheckpointRevert  CheckpointKind = "revert"  // the user reverted a change or a file
	CheckpointRewind  CheckpointKind = "rewind"  // the user rewound the session's files
)

// RewindMode is what Rewind restores.
type RewindMode string

// Restore modes of Rewind.
const (
	RewindCode         RewindMode = "code"
	RewindBoth         RewindMode = "both"
	RewindConversation RewindMode = "conversation"
)

// Resolution resolves a conflict of a revert or rewind: keep what is on
// disk, or take the checkpoint's version.
type Resolution string

// Conflict resolutions.
const (
	ResolveMine       Resolution = "mine"
	ResolveCheckpoint Resolution = "checkpoint"
)

// HunkDecision is the user's decision on one proposed hunk.
type HunkDecision string

// Hunk decisions.
const (
	HunkApproved HunkDecision = "approved"
	HunkRejected HunkDecision = "rejected"
	HunkPending  HunkDecision = "pending"
)

// MCPScope is where an MCP server is configured.
type MCPScope string

// MCP scopes.
const (
	ScopeUser    MCPScope = "user"
	ScopeProject MCPScope = "project"
)

// MCPTransport is how an MCP server is reached.
type MCPTransport string

// MCP transports.
const (
	TransportStdio MCPTransport = "stdio"
	TransportHTTP  MCPTransport = "http"
	TransportSSE   MCPTransport = "sse"
)

// MCPState is where an MCP server stands.
type MCPState string

// MCP server states.
const (
	MCPStarting MCPState = "starting"
	MCPReady    MCPState = "ready"
	MCPFailed   MCPState = "failed" // MCPServer.Error says why
	MCPDisabled MCPState = "disabled"
)

// HookDecision is what one hook run decided (HookRun): allow, deny or ask
// a tool call, none (it let things go on without a say), or error (it
// failed or timed out: a non-blocking error). A blocking exit (2) or a
// "block" decision is deny.
type HookDecision string

// Hook decisions.
const (
	HookAllow HookDecision = "allow"
	HookDeny  HookDecision = "deny"
	HookAsk   HookDecision = "ask"
	HookNone  HookDecision = "none"
	HookError HookDecision = "error"
)

// NoticeHook is a notice about settings.json hooks: a hook run outside a
// tool card (UserPromptSubmit, Stop, ...), or project hooks that are not
// trusted.
const NoticeHook NoticeKind = "hook"

// FactSource is where a fact of a model (its window, answer limit or
// prices) came from, best first (docs/MODELS.md).
type FactSource string

// Fact sources.
const (
	FactOverride FactSource = "override" // the user's models in settings.json (Settings › Models)
	FactServer   FactSource = "server"   // what the server reports of the model
	FactTable    FactSource = "table"    // Pilot's built-in table
	FactGuess    FactSource = "guess"    // nothing says: a guess, shown as one
)

// SetupKind is what an item of the Setup page is (SetupItem.Kind, the
// setup-item's data-kind).
type SetupKind string

// Setup item kinds.
const (
	SetupHook    SetupKind = "hook"    // a hook of a settings file
	SetupSkill   SetupKind = "skill"   // a SKILL.md folder
	SetupAgent   SetupKind = "agent"   // a custom agent's .md file
	SetupRule    SetupKind = "rule"    // a permission entry of a settings file
	SetupMCP     SetupKind = "mcp"     // an MCP server of mcp.json or .mcp.json
	SetupCommand SetupKind = "command" // a custom slash command's .md file
)

// SetupMemory is an instruction file: the user's (~/.claude/CLAUDE.md,
// ~/.codex/AGENTS.md), the project's (AGENTS.md, CLAUDE.md, progress.md),
// CLAUDE.local.md, .claude/rules/*.md, a nested one (sub/AGENTS.md) or an
// import (@path in one of them).
const SetupMemory SetupKind = "memory"

// SetupState is what became of a Setup item (SetupItem.State, the
// setup-item's data-state).
type SetupState string

// Setup item states. Active is "runs" for a hook, "in use" for a skill,
// agent or command, "applied" for a rule and "trusted" (started) for an
// MCP server.
const (
	SetupActive    SetupState = "active"    // in force
	SetupUntrusted SetupState = "untrusted" // a project's file the user has not trusted as it is: it waits for pilot trust or the trust prompt
	SetupIgnored   SetupState = "ignored"   // Pilot cannot use it (unknown event, bad matcher, an entry it cannot map); Detail says why
	SetupShadowed  SetupState = "shadowed"  // another of the same name wins; Detail names it
	SetupBroken    SetupState = "broken"    // its file cannot be read or parsed; Detail says what to fix
	SetupDisabled  SetupState = "disabled"  // turned off by the user (an MCP server)
)

// SetupRefused: a project file Pilot did not read, as it is a link out of
// the project folder, not a regular file (a FIFO, a device) or too big;
// Detail names the file and what to do.
const SetupRefused SetupState = "refused"

// Instruction files' states beside active (given to the model), shadowed
// (its text adds nothing: already given as another file) and refused.
const (
	SetupCut     SetupState = "cut"     // too big: only its start is given to the model; Detail says how much
	SetupMissing SetupState = "missing" // a standard place with no file (or an empty one), or an import of a missing file
)

// ExportFormat is what a session is exported as (ExportSession,
// SaveSessionExport): Markdown or JSON.
type ExportFormat string

// Export formats.
const (
	ExportMarkdown ExportFormat = "md"
	ExportJSON     ExportFormat = "json"
)
