package wire

import (
	"encoding/json"
	"time"
)

// The JSON the command line prints with --json, one type per line kind
// or command, so its shape lives here and nowhere else. docs/cli-json.md
// documents each of them; a test in backend/cli checks it against these
// tags. The lines are stable: fields may be added, none is renamed or
// removed. Every field is always present unless its tag says omitempty
// or omitzero.

// TextLine (`pilot -p --json`, `pilot repl --json`) is a piece of the
// assistant's answer as it streams.
type TextLine struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"` // the next piece of the answer
}

// UsageLine is the tokens and cost after a model call.
type UsageLine struct {
	Type  string `json:"type"`  // "usage"
	Usage Usage  `json:"usage"` // the session's totals and context use so far
}

// NoticeLine is something the agent did on its own (a compaction, a
// retry).
type NoticeLine struct {
	Type string `json:"type"` // "notice"
	Kind string `json:"kind"` // compacted, budget, limit, loop_guard, mcp, rule, stale, ...
	Text string `json:"text"` // a sentence
}

// ErrorLine is an error that ends the turn.
type ErrorLine struct {
	Type    string `json:"type"`    // "error"
	Kind    string `json:"kind"`    // what failed
	Message string `json:"message"` // why the turn failed, a sentence
}

// DoneLine is the end of the turn, always the last line of a turn.
type DoneLine struct {
	Type      string `json:"type"`      // "done"
	Reason    string `json:"reason"`    // end_turn, plan, cancelled, error, limit, loop_guard, budget, max_tokens
	SessionID int64  `json:"sessionId"` // the session the turn is saved in
}

// ToolCallLine announces a tool call, once.
type ToolCallLine struct {
	Type     string          `json:"type"`               // "tool_call"
	ID       string          `json:"id"`                 // the model's tool_use id
	Name     string          `json:"name"`               // the tool
	Label    string          `json:"label"`              // the words of the → line on stderr
	Input    json.RawMessage `json:"input"`              // the tool's JSON input
	ParentID string          `json:"parentId,omitempty"` // a helper's call: the id of its task call
}

// ToolResultLine is how a tool call ended.
type ToolResultLine struct {
	Type    string          `json:"type"` // "tool_result"
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Status  string          `json:"status"` // done, error, rejected, cancelled, ...
	IsError bool            `json:"isError"`
	Output  string          `json:"output"`            // what the model was told
	Change  *ChangeSummary  `json:"change,omitempty"`  // a file change, once decided
	Effects *CommandEffects `json:"effects,omitempty"` // files an approved command changed
	Hooks   []HookRun       `json:"hooks,omitempty"`   // the settings.json hooks that ran for the call
	// Diagnostics: what the language servers said after the call's
	// applied change (the model read it at the end of Output).
	Diagnostics *Diagnostics `json:"diagnostics,omitempty"`
	// Instructions: the nested instruction files (a subfolder's AGENTS.md
	// or CLAUDE.md, and their imports) the call brought in; the model read
	// their text at the end of Output.
	Instructions []string `json:"instructions,omitempty"`
	// Elicitations: the MCP server's requests for input during the call,
	// with the answers (a headless run's by --elicit).
	Elicitations []Elicitation `json:"elicitations,omitempty"`
}

// ApprovalLine is a question the run answered (headless, without a
// terminal, every question is refused).
type ApprovalLine struct {
	Type        string   `json:"type"` // "approval"
	ID          string   `json:"id"`
	Kind        string   `json:"kind"` // change, command, mcp, fetch, budget, plan, outside_sandbox, network
	Tool        string   `json:"tool"`
	Paths       []string `json:"paths"` // the files a change writes
	Command     string   `json:"command"`
	Server      string   `json:"server"`
	McpTool     string   `json:"mcpTool"`
	Arguments   string   `json:"arguments"`
	Host        string   `json:"host"`
	Port        int      `json:"port,omitempty"`   // network: the port the command wants to reach
	Reason      string   `json:"reason,omitempty"` // outside_sandbox: the model's reason
	AlwaysRules []string `json:"alwaysRules"`      // the rules "always allow" would add
	Decision    string   `json:"decision"`         // "approved" or "rejected"
}

// TodosLine is the whole task list after it changed.
type TodosLine struct {
	Type  string     `json:"type"` // "todos"
	Todos []TodoItem `json:"todos"`
}

// TokenCount is the tokens of a message or a session, by kind.
type TokenCount struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
}

// SessionRecord is a session as `pilot sessions list --json` (a line
// each), `pilot sessions import --json` and `pilot sessions show --json`
// print it. Usage sums every model call of the session.
type SessionRecord struct {
	ID        int64      `json:"id"`
	ProjectID int64      `json:"projectId"`
	Title     string     `json:"title"`
	Provider  string     `json:"provider"`
	Model     string     `json:"model"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
	Usage     TokenCount `json:"usage"`
	CostUSD   float64    `json:"costUsd"`
	State     string     `json:"state"` // idle, running, error
	// ParentSessionID and ParentMessageID name the session and message a
	// fork was made from.
	ParentSessionID int64   `json:"parentSessionId,omitempty"`
	ParentMessageID int64   `json:"parentMessageId,omitempty"`
	ApprovalMode    string  `json:"approvalMode"`        // plan, ask, edits, all or none
	BudgetUSD       float64 `json:"budgetUsd,omitempty"` // the session's cost cap; 0: none
	// Worktree is present for a session that works in its own git worktree.
	Worktree WorktreeRecord `json:"worktree,omitzero"`
	// Waiting is how many decisions (changes, commands, ...) the session's
	// running turn waits on, in whichever Pilot process runs it: the
	// window's inbox lists them; absent when none.
	Waiting int `json:"waiting,omitempty"`
}

// WorktreeRecord is a session's own git worktree in a SessionRecord.
type WorktreeRecord struct {
	Path      string `json:"path"`                // the session's folder in its worktree
	Branch    string `json:"branch"`              // pilot/NAME
	Base      string `json:"base"`                // the commit the branch was made from
	Discarded bool   `json:"discarded,omitempty"` // the worktree and branch were removed
}

// SearchRecord is one hit of `pilot sessions search --json`, a line each,
// best first. Snippet is plain text with the matches between the store's
// marks; Score is bm25, lower is better.
type SearchRecord struct {
	SessionID    int64   `json:"sessionId"`
	SessionTitle string  `json:"sessionTitle"`
	MessageID    int64   `json:"messageId"`
	Kind         string  `json:"kind"` // message, tool_input, tool_output, path
	Snippet      string  `json:"snippet"`
	Score        float64 `json:"score"`
}

// ProjectRecord is a project in `pilot sessions show --json`.
type ProjectRecord struct {
	ID         int64     `json:"id"`
	Path       string    `json:"path"`
	Name       string    `json:"name"`
	CreatedAt  time.Time `json:"createdAt"`
	LastOpened time.Time `json:"lastOpened"`
}

// Transcript is `pilot sessions show ID --json`: the session with every
// message, tool call and change, and its latest compaction, as of one
// moment.
type Transcript struct {
	Project   ProjectRecord   `json:"project"`
	Session   SessionRecord   `json:"session"`
	Messages  []MessageRecord `json:"messages"`
	ToolCalls []CallRecord    `json:"toolCalls"`
	Changes   []ChangeRecord  `json:"changes"`
	Summary   *SummaryRecord  `json:"summary,omitempty"`
	// Comments are the user's line comments, drafts and sent.
	Comments []LineComment `json:"comments,omitempty"`
}

// MessageRecord is one message of a Transcript, in conversation order.
type MessageRecord struct {
	ID        int64          `json:"id"`
	SessionID int64          `json:"sessionId"`
	Seq       int            `json:"seq"`
	Role      string         `json:"role"` // user or assistant
	Content   []ContentBlock `json:"content"`
	Usage     TokenCount     `json:"usage"` // the call that produced it (assistant)
	State     string         `json:"state"` // complete, streaming, interrupted
	CreatedAt time.Time      `json:"createdAt"`
}

// ContentBlock is one block of a stored message, in the form the
// providers' messages are kept (snake_case where the provider's is).
type ContentBlock struct {
	Type      string          `json:"type"` // text, thinking, redacted_thinking, tool_use, tool_result, image, server_tool_use, web_search_tool_result
	Text      string          `json:"text,omitempty"`
	Command   string          `json:"command,omitempty"` // the user's text as typed, when Text is a slash command's expansion
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Field     string          `json:"field,omitempty"`
	Origin    string          `json:"origin,omitempty"`
	Data      string          `json:"data,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	MediaType string          `json:"media_type,omitempty"`
	Hash      string          `json:"hash,omitempty"`
	Images    []ContentBlock  `json:"images,omitempty"`
	// Raw is a block of a provider's own web search (server_tool_use,
	// web_search_tool_result) exactly as the provider sent it; it goes
	// back to that provider unchanged.
	Raw json.RawMessage `json:"raw,omitempty"`
	// Citations are the sources a text block cites, each as the provider
	// sent it.
	Citations []json.RawMessage `json:"citations,omitempty"`
	// Bytes is an image's data, read from the ledger before a request to a
	// provider; never stored, never written as JSON.
	Bytes []byte `json:"-"`
}

// CallRecord is one tool call of a Transcript and what came of it.
type CallRecord struct {
	ID              int64           `json:"id"`
	SessionID       int64           `json:"sessionId"`
	MessageID       int64           `json:"messageId"`
	ToolUseID       string          `json:"toolUseId"`
	Name            string          `json:"name"`
	Input           json.RawMessage `json:"input"`
	Output          string          `json:"output"`
	Status          string          `json:"status"`
	Approval        string          `json:"approval"`
	Feedback        string          `json:"feedback,omitempty"`
	StartedAt       time.Time       `json:"startedAt"`
	FinishedAt      time.Time       `json:"finishedAt,omitzero"`
	ParentToolUseID string          `json:"parentToolUseId,omitempty"`
	RefusedBy       string          `json:"refusedBy,omitempty"`
	Sandbox         string          `json:"sandbox,omitempty"`      // a SandboxInfo as JSON
	Hooks           string          `json:"hooks,omitempty"`        // the settings.json hooks that ran for it: a list of HookRun as JSON
	Diagnostics     string          `json:"diagnostics,omitempty"`  // what the language servers said after its change: a Diagnostics as JSON
	Instructions    string          `json:"instructions,omitempty"` // the nested instruction files it brought in: a JSON array of their paths
	Elicitations    string          `json:"elicitations,omitempty"` // its MCP server's requests for input, with the answers: a list of Elicitation as JSON
}

// ChangeRecord is a file change a tool proposed, and what became of it.
type ChangeRecord struct {
	ID         int64        `json:"id"`
	ToolCallID int64        `json:"toolCallId"`
	Path       string       `json:"path"`
	OldHash    string       `json:"oldHash"`
	NewHash    string       `json:"newHash"`
	Hunks      []HunkRecord `json:"hunks"`
	UserEdited *string      `json:"userEdited,omitempty"`
	Applied    bool         `json:"applied"`
	CreatedAt  time.Time    `json:"createdAt"`
}

// HunkRecord is one hunk of a ChangeRecord and the user's decision on it.
type HunkRecord struct {
	Header   string `json:"header"`
	Text     string `json:"text"`
	Decision string `json:"decision"`
}

// SummaryRecord is a session's latest compaction: the summary that
// replaces the messages before KeepID.
type SummaryRecord struct {
	SessionID int64     `json:"sessionId"`
	Text      string    `json:"text"`
	KeepID    int64     `json:"keepId"`
	CreatedAt time.Time `json:"createdAt"`
}

// RuleLine is one rule as `pilot rules list|add|remove --json` prints it.
// Reason is the sentence that says why an invalid rule cannot match. A
// rule read from a settings file (list only) has ID 0 and names its File,
// Scope and Entry (as the file writes it: Bash(npm test:*)); NotApplied
// says why it does not apply (an allow rule of a project file not
// trusted). An entry of a settings file Pilot ignores is a line with
// Invalid, Reason, Entry and File, and no Tool.
type RuleLine struct {
	ID         int64      `json:"id"`
	Effect     RuleEffect `json:"effect"`
	Tool       string     `json:"tool"`
	Pattern    string     `json:"pattern"`
	Invalid    bool       `json:"invalid"`
	Reason     string     `json:"reason,omitempty"`
	Entry      string     `json:"entry,omitempty"`
	File       string     `json:"file,omitempty"`
	Scope      string     `json:"scope,omitempty"`
	NotApplied string     `json:"notApplied,omitempty"`
}

// MCPStatus is a server as `pilot mcp list --json` (a line each) and
// `pilot mcp get NAME --json` print it: its state once it started or
// failed, what it offers, and its configuration as written.
type MCPStatus struct {
	Name      string            `json:"name"`
	Scope     string            `json:"scope"` // user or project
	Transport string            `json:"transport"`
	Display   string            `json:"display"` // the command it runs or the URL
	State     string            `json:"state"`   // starting, ready, failed, disabled
	Error     string            `json:"error,omitempty"`
	Tools     []MCPToolInfo     `json:"tools"`
	Prompts   []MCPPromptInfo   `json:"prompts"`
	Stderr    []string          `json:"stderr"`
	Restarts  int               `json:"restarts"`
	Server    MCPServerSettings `json:"server"`
	// SignIn is an HTTP server's OAuth sign-in: "needs sign-in" (pilot
	// mcp login NAME), "signed in", "signed in (expires ...)" or "signed
	// in (renews ...)"; empty for a server that asked for none.
	SignIn string `json:"signIn,omitempty"`
}

// MCPToolInfo is one tool of an MCPStatus; Name is mcp__SERVER__TOOL.
type MCPToolInfo struct {
	Name        string          `json:"name"`
	Server      string          `json:"server"`
	Tool        string          `json:"tool"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
}

// MCPPromptInfo is one prompt of an MCPStatus, offered as /Name.
type MCPPromptInfo struct {
	Name        string   `json:"name"`
	Server      string   `json:"server"`
	Prompt      string   `json:"prompt"`
	Description string   `json:"description"`
	Args        []string `json:"args"`
}

// MCPServerSettings is a server's entry as written in mcp.json or
// .mcp.json.
type MCPServerSettings struct {
	Type     string            `json:"type,omitempty"` // stdio (or empty), http, sse
	Command  string            `json:"command,omitempty"`
	Args     []string          `json:"args,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Cwd      string            `json:"cwd,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Disabled bool              `json:"disabled,omitempty"`
	// OAuth is the client an HTTP server's authorization server knows
	// already (Claude Code's "oauth" entry); without it Pilot registers
	// itself when the user signs in.
	OAuth *MCPOAuth `json:"oauth,omitempty"`
}

// MCPOAuth is a server's pre-registered OAuth client: its client ID, its
// secret for a confidential client (best written ${VAR}, expanded from
// the environment like a header), and the port of the redirect
// (http://localhost:PORT/callback) it was registered with (0: any free
// port, for a client that allows it).
type MCPOAuth struct {
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	CallbackPort int    `json:"callbackPort,omitempty"`
}

// DoctorReport is `pilot doctor --json`: every check, and whether all
// the needed ones passed.
type DoctorReport struct {
	Ready  bool          `json:"ready"`
	Checks []DoctorCheck `json:"checks"`
	// LanguageServers are the language servers Pilot knows and the
	// user's own: found or not, with their version. They are optional:
	// a missing one never makes Ready false.
	LanguageServers []LanguageServer `json:"languageServers,omitempty"`
}

// DoctorCheck is one thing Pilot relies on. Needed: when not OK, Pilot
// cannot do all it should. Detail is a sentence: what was found, and what
// to do when not OK.
type DoctorCheck struct {
	Name   string `json:"name"` // sandbox, bubblewrap, user namespaces, landlock, proxy, git, rg
	OK     bool   `json:"ok"`
	Needed bool   `json:"needed"`
	Detail string `json:"detail"`
}

// ModelList is `pilot models --json`: the server asked, the ids of its
// models, sorted, and each model's facts (window, answer limit, prices),
// each with where it came from (docs/MODELS.md).
type ModelList struct {
	Provider string   `json:"provider"`
	BaseURL  string   `json:"baseUrl"`
	Models   []string `json:"models"`
	// Facts are each model's facts, in the order of Models.
	Facts []ModelFacts `json:"facts"`
}

// ModelFacts is what Pilot knows of a model, each fact with where it came
// from: the user's override, the server, the built-in table, or a guess.
type ModelFacts struct {
	ID              string     `json:"id"`
	Window          int        `json:"window"` // the context window in tokens
	WindowSource    FactSource `json:"windowSource"`
	MaxOutput       int        `json:"maxOutput"` // the model's answer limit in tokens
	MaxOutputSource FactSource `json:"maxOutputSource"`
	// Prices is absent when nothing gives the model's prices
	// (PricesSource guess: the cost is not known).
	Prices       *ModelPrices `json:"prices,omitempty"`
	PricesSource FactSource   `json:"pricesSource"`
	// Loaded is the context the server has the model loaded with, where it
	// says (Ollama, LM Studio); 0: not loaded or not said.
	Loaded int `json:"loaded,omitempty"`
}

// ModelPrices are a model's prices in US dollars per million tokens.
type ModelPrices struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead,omitempty"`
	CacheWrite float64 `json:"cacheWrite,omitempty"` // 0: writes cost as input
}

// WorktreeMerge is `pilot worktree merge SESSION --json`: what the merge
// did, printed also when it refused or left files (the exit code says
// which, as without --json: 0 merged, 1 conflicts). A bad command line or
// a merge that could not run prints no object, only its sentence on
// stderr (exit 2 or 1).
type WorktreeMerge struct {
	SessionID int64  `json:"sessionId"` // the worktree session whose branch was merged
	Branch    string `json:"branch"`    // pilot/NAME
	// MergeSessionID is the project-folder session holding the merge as
	// one change its Changes view can undo; 0 when nothing was written.
	MergeSessionID int64           `json:"mergeSessionId"`
	Merged         []string        `json:"merged"`    // files written into the project folder (or already as the branch has them when nothing was written)
	Conflicts      []MergeConflict `json:"conflicts"` // files not written, each with a sentence saying why and what to do
	Message        string          `json:"message"`   // the sentence the command prints without --json
}

// WorktreeLine is one worktree session as `pilot worktree list --json`
// prints it, a line each, the most recently used first.
type WorktreeLine struct {
	SessionID int64        `json:"sessionId"`
	Title     string       `json:"title"`
	Branch    string       `json:"branch"`    // pilot/NAME
	Path      string       `json:"path"`      // the session's folder in its worktree
	State     SessionState `json:"state"`     // the session's last saved state: idle, running, interrupted, error
	Discarded bool         `json:"discarded"` // the worktree and branch were removed; the session is history
}

// Setup is what Pilot found of the user's setup for one project folder:
// every hook, skill, custom agent, permission rule of a settings file,
// MCP server, custom command and instruction file, each with its file,
// its scope and its state (`pilot setup --json` prints it as one object;
// Settings › Setup shows it). ToolNames is the name hooks see for each Pilot tool.
type Setup struct {
	Project string      `json:"project"`
	Items   []SetupItem `json:"items"` // hooks, skills, agents, rules, MCP servers, commands, instruction files, in that order
	// NeedsTrust: some of the project's files (.mcp.json, settings files)
	// wait for the user's trust (pilot trust, or the trust prompt).
	NeedsTrust bool           `json:"needsTrust"`
	ToolNames  []HookToolName `json:"toolNames"`
}

// SetupItem is one thing found. Scope is user (~/.claude), pilot-user
// (PILOT_HOME), project (.claude/ and .mcp.json), local
// (.claude/settings.local.json) or pilot-project (.pilot/).
type SetupItem struct {
	Kind SetupKind `json:"kind"`
	// Name is a hook's event, a skill's, agent's or MCP server's name, a
	// rule's entry as the file writes it, a command's /name, an
	// instruction file's name.
	Name string `json:"name"`
	// Description is a hook's command, a skill's, agent's or command's
	// description, the Pilot rule an entry became, an MCP server's
	// command or URL.
	Description string     `json:"description"`
	Matcher     string     `json:"matcher,omitempty"` // a hook's matcher ("" matches every tool)
	File        string     `json:"file"`              // the file it comes from (a skill: its SKILL.md)
	Scope       string     `json:"scope"`
	State       SetupState `json:"state"`
	Detail      string     `json:"detail"` // a sentence saying why, when State is not active (refused: the file, why it was not read, what to do); what an active item does, where that matters
	// Tokens is an instruction file's size for the model in tokens, an
	// estimate (its bytes given to the model / 4); 0 for the other kinds.
	Tokens int `json:"tokens,omitempty"`
}

// HookToolName is a Pilot tool and the tool_name hooks (and the settings
// files' permission entries) use for it, as Claude Code names it.
type HookToolName struct {
	Pilot  string `json:"pilot"`
	Claude string `json:"claude"`
}
