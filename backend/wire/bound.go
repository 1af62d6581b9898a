package wire

// Types returned by or passed to bound methods (fetched, not pushed).

// Project is a folder the user opened.
type Project struct {
	ID         int64  `json:"id"`
	Path       string `json:"path"`
	Name       string `json:"name"`
	LastOpened int64  `json:"lastOpened"`
}

// SessionDetail is everything the chat shows for one session. Seq is the
// last event sequence number whose effect it contains: apply only later
// events on top of it.
type SessionDetail struct {
	Seq       int64          `json:"seq"`
	Session   SessionSummary `json:"session"`
	Messages  []Message      `json:"messages"`
	ToolCalls []ToolCall     `json:"toolCalls"`
	Pending   []Approval     `json:"pending"`
	Usage     Usage          `json:"usage"`
	State     AgentStatus    `json:"state"`
	// Todos is the session's task list ([] when it has none).
	Todos []TodoItem `json:"todos"`
	// HasOlder is whether messages precede Messages (the session's last
	// page): the window reads them with OlderMessages.
	HasOlder bool `json:"hasOlder"`
}

// MessagePage is a run of a session's messages before those the window
// has, with their tool calls.
type MessagePage struct {
	Messages  []Message  `json:"messages"`
	ToolCalls []ToolCall `json:"toolCalls"`
	HasOlder  bool       `json:"hasOlder"`
}

// DiffLine is one line of a hunk. Kind is context, add or del.
type DiffLine struct {
	Kind  DiffLineKind `json:"kind"`
	Text  string       `json:"text"`
	OldNo int          `json:"oldNo,omitempty"`
	NewNo int          `json:"newNo,omitempty"`
}

// Hunk is one reviewable piece of a file change.
type Hunk struct {
	Index    int        `json:"index"`
	OldStart int        `json:"oldStart"`
	OldLines int        `json:"oldLines"`
	NewStart int        `json:"newStart"`
	NewLines int        `json:"newLines"`
	Lines    []DiffLine `json:"lines"`
	// Note is set for a hunk of a branch's review that is no lines but a
	// whole file (a binary file, a symbolic link, an empty file made or
	// deleted) or a change of a file's executable bit: what it changes, in
	// a sentence; Lines is then empty.
	Note string `json:"note,omitempty"`
}

// FileChange is one file of a proposed change.
type FileChange struct {
	Path  string `json:"path"`
	IsNew bool   `json:"isNew"`
	// NewText is what the model proposes (the terminal's editor starts
	// from it). The window fetches it only when the user edits
	// (ProposedText): for a big file it is most of the view.
	NewText string `json:"-"`
	Emptied bool   `json:"emptied"` // the proposal leaves the file empty
	Hunks   []Hunk `json:"hunks"`
}

// ChangeView is a pending change with every file's hunks.
type ChangeView struct {
	ApprovalID string       `json:"approvalId"`
	Tool       string       `json:"tool"`
	Files      []FileChange `json:"files"`
}

// FileDecision decides one file of a change. Hunks[i] approves hunk i;
// EditedText, when set, replaces the proposed text and is applied as is.
type FileDecision struct {
	Path       string  `json:"path"`
	Hunks      []bool  `json:"hunks"`
	EditedText *string `json:"editedText,omitempty"`
}

// ChangeDecision is the user's answer to a change approval.
type ChangeDecision struct {
	Files       []FileDecision `json:"files"`
	Feedback    string         `json:"feedback"`
	AlwaysAllow bool           `json:"alwaysAllow"`
	// Comments are the user's line comments on this change: one on a
	// rejected hunk tells the model why, in the call's result.
	Comments []Comment `json:"comments,omitempty"`
}

// CommandDecision is the user's answer to a command approval.
type CommandDecision struct {
	Approve     bool   `json:"approve"`
	Feedback    string `json:"feedback"`
	AlwaysAllow bool   `json:"alwaysAllow"`
}

// SearchHit is one result of a search over past sessions. Snippet marks
// matches with <mark>…</mark> around escaped text.
type SearchHit struct {
	SessionID    int64         `json:"sessionId"`
	SessionTitle string        `json:"sessionTitle"`
	MessageID    int64         `json:"messageId"`
	Kind         SearchHitKind `json:"kind"`
	Snippet      string        `json:"snippet"`
}

// DirPageQuery asks for one page of a folder of the file tree.
type DirPageQuery struct {
	Dir    string `json:"dir"`    // relative, '/'-separated, "" for the root
	Locale string `json:"locale"` // the window's collation locale (BCP 47), for the order
	Offset int    `json:"offset"` // the first entry wanted, from 0
	Limit  int    `json:"limit"`  // entries wanted, 1 to DirPageMax
	// Version is the listing the window's other pages of this folder come
	// from, 0 for a fresh listing (expanding the folder, files changed).
	Version int64 `json:"version"`
}

// DirPageMax is the most entries one DirPage carries.
const DirPageMax = 1000

// DirPage is a page of one folder of the file tree: folders first, then
// files, each in the order of the query's locale (as the window's
// Intl.Collator sorts), without what the project ignores. A folder may
// hold 100,000 files, so the window asks for the pages it shows.
type DirPage struct {
	Dir string `json:"dir"` // relative, '/'-separated, "" for the root
	// Version names the listing the page is from; pages of another version
	// are from before or after a change to the folder.
	Version int64       `json:"version"`
	Total   int         `json:"total"`  // entries in the folder
	Offset  int         `json:"offset"` // the index of Entries[0]
	Entries []TreeEntry `json:"entries"`
}

// TreeEntry is one row of the file tree: a name and its marks.
type TreeEntry struct {
	Name    string `json:"name"`
	Dir     bool   `json:"dir,omitempty"`     // a folder, or a link to one
	Link    bool   `json:"link,omitempty"`    // a symbolic link
	Changed bool   `json:"changed,omitempty"` // changed by the active session (a folder: holds such files)
	// Errors is the language servers' error count for this file after the
	// session's last change (0: none known).
	Errors int `json:"errors,omitempty"`
}

// FilePreview is a read-only view of a project file.
type FilePreview struct {
	Path      string `json:"path"`
	Text      string `json:"text"`
	Binary    bool   `json:"binary"`
	Truncated bool   `json:"truncated"`
	Size      int64  `json:"size"`
}

// Rule is a per-project permission rule. Effect is allow or deny; Tool is
// a tool name or "edits" for every file-changing tool. Invalid is the
// sentence that says why a stored rule can never match ("" when valid).
type Rule struct {
	ID      int64      `json:"id"`
	Tool    string     `json:"tool"`
	Pattern string     `json:"pattern"`
	Effect  RuleEffect `json:"effect"`
	Invalid string     `json:"invalid"`
}

// SettingsView is what the Settings screen shows. Source says where a
// value comes from (env, dotenv, settings or default) and SourceFrom names
// the variable or file, so the form can say "OPENAI_BASE_URL overrides
// this". Warnings are problems with saved files, one sentence each.
type SettingsView struct {
	Provider       string       `json:"provider"`
	Model          string       `json:"model"`
	BaseURL        string       `json:"baseUrl"`
	HasKey         bool         `json:"hasKey"`
	KeyHint        string       `json:"keyHint"` // e.g. "sk-…9f3a"
	ApprovalMode   ApprovalMode `json:"approvalMode"`
	ThinkingBudget int          `json:"thinkingBudget"` // extended thinking, Anthropic only; 0: off
	BudgetTokens   int          `json:"budgetTokens"`
	BudgetUSD      float64      `json:"budgetUsd"`
	// CheckpointRetentionMB caps the checkpoint content kept per project.
	CheckpointRetentionMB int `json:"checkpointRetentionMb"`
	// MCPTimeoutSeconds caps each MCP tool call.
	MCPTimeoutSeconds int `json:"mcpTimeoutSeconds"`
	// HelperConcurrency is how many helpers of a turn run at once.
	HelperConcurrency int `json:"helperConcurrency"`
	// JobsPerSession is how many background jobs a session may run at once.
	JobsPerSession int `json:"jobsPerSession"`
	// Notifications: a desktop notification when an approval waits or a
	// turn ends while the window is not in front.
	Notifications bool `json:"notifications"`
	// CheckpointUsageBytes is what the open project's checkpoints take now.
	CheckpointUsageBytes int64                  `json:"checkpointUsageBytes"`
	Source               map[string]ValueSource `json:"source"`
	SourceFrom           map[string]string      `json:"sourceFrom"`
	Presets              []Preset               `json:"presets"`
	Warnings             []string               `json:"warnings"`
	NeedsOnboarding      bool                   `json:"needsOnboarding"`
	// ModelOverrides are what the user states of models (Settings ›
	// Models, settings.json's models), by id.
	ModelOverrides []ModelOverride `json:"modelOverrides"`
}

// ModelOverride is what the user states of a model: each fact set (not
// zero) wins over what the server and the built-in table say.
type ModelOverride struct {
	ID        string       `json:"id"`               // the model's id as the server knows it
	Window    int          `json:"window"`           // the context window in tokens; 0: not set
	MaxOutput int          `json:"maxOutput"`        // the answer limit in tokens; 0: not set
	Prices    *ModelPrices `json:"prices,omitempty"` // absent: not set
}

// Preset is a known server: choosing it (its ID is the provider saved)
// fills the base URL and, when it has one, a model. Provider is the
// protocol it speaks (anthropic or openai). KeyEnv is the environment
// variable its key is read from; KeySource says where its key is now
// ("env": KeyEnv is set, "settings": saved here, "": none) and KeyHint
// shows it masked. SavedBaseURL is the base URL saved for it, if any.
type Preset struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Provider     Protocol  `json:"provider"`
	BaseURL      string    `json:"baseUrl"`
	NeedsKey     bool      `json:"needsKey"`
	Model        string    `json:"model,omitempty"`
	Local        bool      `json:"local"`
	KeyEnv       string    `json:"keyEnv,omitempty"`
	KeySource    KeySource `json:"keySource,omitempty"`
	KeyHint      string    `json:"keyHint,omitempty"`
	SavedBaseURL string    `json:"savedBaseUrl,omitempty"`
}

// SettingsInput is what the Settings form saves. An empty APIKey keeps the
// saved key; ClearKey removes it.
type SettingsInput struct {
	Provider       string       `json:"provider"`
	Model          string       `json:"model"`
	BaseURL        string       `json:"baseUrl"`
	APIKey         string       `json:"apiKey"`
	ClearKey       bool         `json:"clearKey"`
	ApprovalMode   ApprovalMode `json:"approvalMode"`
	ThinkingBudget int          `json:"thinkingBudget"` // tokens, 0: off; at least 1024 otherwise
	BudgetTokens   int          `json:"budgetTokens"`
	BudgetUSD      float64      `json:"budgetUsd"`
	// CheckpointRetentionMB: MiB of checkpoint content kept per project (at least 10).
	CheckpointRetentionMB int `json:"checkpointRetentionMb"`
	// MCPTimeoutSeconds: seconds before an MCP tool call is given up (1-3600; 0: keep).
	MCPTimeoutSeconds int `json:"mcpTimeoutSeconds"`
	// HelperConcurrency: helpers of a turn running at once (1-8; 0: keep).
	HelperConcurrency int `json:"helperConcurrency"`
	// JobsPerSession: background jobs a session may run at once (1-20;
	// 0 or absent: keep).
	JobsPerSession int `json:"jobsPerSession,omitempty"`
	// Notifications turns desktop notifications on or off (absent: keep).
	Notifications *bool `json:"notifications,omitempty"`
}

// ImageInput is an image the user attached to a prompt: its media type
// and its bytes in base64.
type ImageInput struct {
	MediaType string `json:"mediaType"`
	Data      string `json:"data"`
}

// ImageView is a stored image, fetched by hash: a data: URL the window
// shows as it is.
type ImageView struct {
	Hash      string `json:"hash"`
	MediaType string `json:"mediaType"`
	DataURL   string `json:"dataUrl"`
}
