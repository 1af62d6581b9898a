package wire

import "encoding/json"

// The views below are what a frontend renders; bound methods return them
// too. make bindings writes them into frontend/src/lib/wire.gen.ts.

// Block is one content block of a message as the window shows it.
type Block struct {
	Type BlockType `json:"type"`
	Text string    `json:"text,omitempty"`
	// Command is a user's text block as typed ("/hello Ada") when Text is
	// the slash command's expansion the model read.
	Command   string          `json:"command,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty" ts_type:"unknown"`
	ToolUseID string          `json:"toolUseId,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
	// An image: its hash (fetched with GetImage, never pushed inline) and
	// media type. A tool result's images are in Images.
	Hash      string  `json:"hash,omitempty"`
	MediaType string  `json:"mediaType,omitempty"`
	Images    []Block `json:"images,omitempty"`
	// Sources are the pages a text block cites, from the provider's own
	// web search: shown with the text.
	Sources []Source `json:"sources,omitempty"`
}

// Message is one message of a session. State is complete, streaming or
// interrupted.
type Message struct {
	ID        int64        `json:"id"`
	Role      Role         `json:"role"`
	Blocks    []Block      `json:"blocks"`
	State     MessageState `json:"state"`
	CreatedAt int64        `json:"createdAt"` // unix milliseconds
}

// ToolCall is one tool call card. Status is running, awaiting_approval,
// done, error, rejected or cancelled.
type ToolCall struct {
	ID        string `json:"id"` // the model's tool_use id
	MessageID int64  `json:"messageId"`
	// ParentID is the id of the task call whose helper made this call
	// ("" for the main agent's calls); the card is shown under it.
	ParentID   string          `json:"parentId,omitempty"`
	Name       string          `json:"name"`
	Label      string          `json:"label"`
	Input      json.RawMessage `json:"input" ts_type:"unknown"`
	Status     ToolStatus      `json:"status"`
	Output     string          `json:"output"`
	IsError    bool            `json:"isError"`
	ApprovalID string          `json:"approvalId,omitempty"`
	StartedAt  int64           `json:"startedAt"`
	FinishedAt int64           `json:"finishedAt,omitempty"`
	// RefusedBy says who refused a rejected call: user, plan (plan mode),
	// mode (the approval mode) or rule (RefusedRule names the deny rule
	// when one matched); "" when not refused or not known.
	RefusedBy   RefusedBy `json:"refusedBy,omitempty"`
	RefusedRule string    `json:"refusedRule,omitempty"`
	// Change is what became of a file change (write_file, patch_file,
	// multi_patch) once decided.
	Change *ChangeSummary `json:"change,omitempty"`
	// Effects lists the files an approved command changed.
	Effects *CommandEffects `json:"effects,omitempty"`
	// Sandbox is how a run_bash command ran with respect to the OS
	// sandbox; nil for other tools and commands not run.
	Sandbox *SandboxInfo `json:"sandbox,omitempty"`
	// Hooks are the settings.json hooks that ran for this call
	// (PreToolUse, PostToolUse), in the order they ran.
	Hooks []HookRun `json:"hooks,omitempty"`
	// Diagnostics is what the language servers said after this call's
	// applied change (file changes and commands that changed source
	// files); nil when none was asked.
	Diagnostics *Diagnostics `json:"diagnostics,omitempty"`
	// JobID is the background job a run_bash background call started.
	JobID string `json:"jobId,omitempty"`
	// Instructions are the nested instruction files (a subfolder's
	// AGENTS.md or CLAUDE.md, and their imports; relative to the project)
	// this call brought in: their text was added to its result for the
	// model, as the project's instructions for the files under them.
	Instructions []string `json:"instructions,omitempty"`
	// NeedsSignIn names the MCP server that refused this call for want of
	// a sign-in (the backend's *mcpauth.SignInError, not its text): the
	// card offers "Sign in", then "Retry" (RetryToolCall). Shown while the
	// session is open; not stored.
	NeedsSignIn string `json:"needsSignIn,omitempty"`
	// Elicitations are the MCP server's requests for input that came
	// while the call ran, each with its answer.
	Elicitations []Elicitation `json:"elicitations,omitempty"`
}

// SandboxInfo is how a command ran with respect to the OS sandbox, kept
// with the call (tool_calls.sandbox) so the card shows it after a reload.
type SandboxInfo struct {
	// Sandboxed: it ran in the session's sandbox.
	Sandboxed bool `json:"sandboxed"`
	// Outside: the model asked to run it outside (sandbox: false), for
	// Reason.
	Outside bool   `json:"outside,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Unavailable: the sandbox could not start on this machine, why and
	// what to install (so it ran with the user's rights after a yes or in
	// mode all).
	Unavailable string `json:"unavailable,omitempty"`
	// Blocked are sentences on what the sandbox blocked: a write to a
	// read-only place, a hidden secret, a refused connection.
	Blocked []string `json:"blocked,omitempty"`
}

// Approval is a decision the user owes. Kind is one of the Approval*
// kinds; every kind but change is answered with DecideCommand.
type Approval struct {
	ID             string       `json:"id"`
	Kind           ApprovalKind `json:"kind"`
	ToolCallID     string       `json:"toolCallId"`
	Tool           string       `json:"tool"`
	Paths          []string     `json:"paths,omitempty"`
	Command        string       `json:"command,omitempty"`
	Cwd            string       `json:"cwd,omitempty"`
	TimeoutSeconds int          `json:"timeoutSeconds,omitempty"`
	// An MCP tool call: the server, its own name of the tool, and the
	// arguments (JSON) the model gave.
	Server    string `json:"server,omitempty"`
	McpTool   string `json:"mcpTool,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// Host is the host a web_fetch call asks to read (Command is
	// "Fetch URL"), or a sandboxed command's connection asks to reach
	// (kind network, with Port; Command is the command); approving it
	// allows the host for the session.
	Host string `json:"host,omitempty"`
	Port int    `json:"port,omitempty"`
	// Reason is the model's sentence for running a command outside the
	// sandbox (kind outside_sandbox).
	Reason string `json:"reason,omitempty"`
	// NoSandbox says why a command asked about would run outside the
	// sandbox although the mode promised it: the sandbox cannot start on
	// this machine (sandbox.Status.Why); "" when it would be sandboxed.
	NoSandbox string `json:"noSandbox,omitempty"`
	// Background: the command starts a background job (run_bash
	// background: true) that runs on until stopped; TimeoutSeconds is 0.
	Background bool `json:"background,omitempty"`
	// AlwaysRules are the rules "always allow" would add, shown before
	// the user chooses; empty when NoAlways is set or the kind offers no
	// "always allow" (budget).
	AlwaysRules []string `json:"alwaysRules,omitempty"`
	// AskRule is the ask rule (from a settings file's permissions.ask)
	// that makes this call asked every time, whatever the mode: `ask
	// run_bash "git push *"`; "" when the mode or no allow rule asks.
	AskRule string `json:"askRule,omitempty"`
	// NoAlways says why "always allow" is not offered for this call (a
	// command no rule can ever allow); "" when it is or the kind has none.
	NoAlways string `json:"noAlways,omitempty"`
	// Elicitation is the form an MCP server asks the user to fill (kind
	// elicitation).
	Elicitation *Elicitation `json:"elicitation,omitempty"`
}

// Usage is a session's token totals, cost and context use.
type Usage struct {
	InputTokens      int     `json:"inputTokens"`
	OutputTokens     int     `json:"outputTokens"`
	CacheReadTokens  int     `json:"cacheReadTokens"`
	CacheWriteTokens int     `json:"cacheWriteTokens"`
	CostUSD          float64 `json:"costUsd"`
	CostKnown        bool    `json:"costKnown"`
	ContextTokens    int     `json:"contextTokens"`
	ContextWindow    int     `json:"contextWindow"`
	// ContextWindowSource says where ContextWindow came from; a guess is
	// shown as one.
	ContextWindowSource FactSource `json:"contextWindowSource"`
}

// SessionSummary is a row of the session list.
type SessionSummary struct {
	ID        int64        `json:"id"`
	ProjectID int64        `json:"projectId"`
	Title     string       `json:"title"`
	Provider  string       `json:"provider"`
	Model     string       `json:"model"`
	CreatedAt int64        `json:"createdAt"`
	UpdatedAt int64        `json:"updatedAt"`
	Tokens    int          `json:"tokens"`
	CostUSD   float64      `json:"costUsd"`
	State     SessionState `json:"state"`
	// ApprovalMode is the session's mode: plan, ask, edits, all or none.
	ApprovalMode ApprovalMode `json:"approvalMode"`
	// Branch (pilot/NAME) and Worktree (its folder) are set for a session
	// that works in its own git worktree.
	Branch   string `json:"branch,omitempty"`
	Worktree string `json:"worktree,omitempty"`
	// WorktreeDiscarded: the worktree and branch were removed; the
	// session stays as history and runs no more turns.
	WorktreeDiscarded bool `json:"worktreeDiscarded,omitempty"`
	// Elsewhere is set while another Pilot process on the same data
	// (`pilot -p`, `pilot repl`, another window) runs a turn of the session.
	Elsewhere *ElsewhereRun `json:"elsewhere,omitempty"`
}

// ElsewhereRun is a turn another Pilot process runs: its process id, the
// agent's state there as it last wrote it (empty while unknown) and the
// approvals waiting there, oldest first.
type ElsewhereRun struct {
	Pid     int         `json:"pid"`
	State   AgentStatus `json:"state,omitempty"`
	Waiting []Approval  `json:"waiting,omitempty"`
}

// SandboxStatus is the OS sandbox of commands as Settings shows it: ready
// or why not (and what to install), what the machine offers, and the
// extra paths the user asked to hide.
type SandboxStatus struct {
	Ready        bool   `json:"ready"`
	Why          string `json:"why,omitempty"`
	Bwrap        string `json:"bwrap,omitempty"`
	BwrapVersion string `json:"bwrapVersion,omitempty"`
	UserNS       string `json:"userNamespaces"`
	LandlockABI  int    `json:"landlockAbi"`
	// Hidden are the extra paths hidden from commands (Settings).
	Hidden []string `json:"hidden"`
	// Sockets are the host's unix sockets commands may connect to
	// (Settings); every other socket under the home is covered.
	Sockets []string `json:"sockets"`
}
