// Package wire is everything that crosses the bridge to a face: the events
// the backend pushes, each with its typed payload, and the values bound
// methods take and return.
//
// Two delivery classes: stream events (text deltas, command output) are
// batched and may be coalesced; every other event is delivered in order and
// never dropped. Every session event carries the session id and a
// per-session sequence number so a frontend can apply them in order. Big
// things (files, diffs) are not pushed: a frontend fetches them through
// bound methods by id.
package wire

// Emitter delivers an event to the frontend. The Wails adapter in
// backend/wailsbridge is the only implementation that touches the runtime.
type Emitter interface {
	Emit(name string, payload any)
}

// Event names.
const (
	// AppReady is emitted once the frontend has called FrontendReady.
	AppReady = "app:ready"

	// AgentState: the session's agent changed state.
	AgentState = "agent:state"
	// AgentStream: batched text and thinking deltas of the message being streamed.
	AgentStream = "agent:stream"
	// AgentMessage: a message was committed (user, assistant or tool results).
	AgentMessage = "agent:message"
	// AgentTool: a tool call was created or changed status.
	AgentTool = "agent:tool"
	// AgentToolOutput: batched live output of a running command.
	AgentToolOutput = "agent:tool_output"
	// AgentApproval: a change or command waits for the user's decision.
	AgentApproval = "agent:approval"
	// AgentApprovalDone: a pending approval was decided or cancelled.
	AgentApprovalDone = "agent:approval_done"
	// AgentUsage: token use and cost of the session changed.
	AgentUsage = "agent:usage"
	// AgentNotice: something the user should know that is not an error
	// (retrying, compacted, loop guard, limits, budget).
	AgentNotice = "agent:notice"
	// AgentError: the turn failed; the message is a human sentence.
	AgentError = "agent:error"
	// AgentTodos: the session's task list was replaced (todo_write).
	AgentTodos = "agent:todos"
	// AgentTurnDone: the turn ended (answered, cancelled, failed, limited,
	// or with a plan: reason "plan").
	AgentTurnDone = "agent:turn_done"
	// SessionUpdated: a session's title, counters or state changed.
	SessionUpdated = "session:updated"
	// LedgerUpdated: a session's change ledger changed (a change or command
	// was recorded, or the user reverted or rewound files).
	LedgerUpdated = "ledger:updated"
	// AgentJob: a background job started, ended or was stopped.
	AgentJob = "agent:job"
	// AgentJobOutput: batched output of a background job.
	AgentJobOutput = "agent:job_output"
	// AgentDiagnostics: the language servers' error counts of some files
	// changed (the file tree's marks).
	AgentDiagnostics = "agent:diagnostics"
)

// Payloads maps every event name to its payload's type (a zero value of
// it). The generator (backend/internal/wiregen) writes it as the window's
// EventMap, so an event the frontend listens to always has the payload Go
// sends.
var Payloads = map[string]any{
	AppReady:          AppReadyPayload{},
	AppOpenProject:    OpenProjectPayload{},
	AppOpenSession:    OpenSessionPayload{},
	AppConfirmQuit:    WorkInFlight{},
	AgentState:        StatePayload{},
	AgentStream:       StreamPayload{},
	AgentMessage:      MessagePayload{},
	AgentTool:         ToolPayload{},
	AgentToolOutput:   ToolOutputPayload{},
	AgentApproval:     ApprovalPayload{},
	AgentApprovalDone: ApprovalDonePayload{},
	AgentUsage:        UsagePayload{},
	AgentNotice:       NoticePayload{},
	AgentError:        ErrorPayload{},
	AgentTodos:        TodosPayload{},
	AgentTurnDone:     TurnDonePayload{},
	SessionUpdated:    SessionPayload{},
	LedgerUpdated:     LedgerUpdatedPayload{},
	MCPUpdated:        MCPUpdatedPayload{},
	AgentJob:          JobPayload{},
	AgentJobOutput:    JobOutputPayload{},
	AgentDiagnostics:  DiagnosticsPayload{},
}

// AppReadyPayload says how long the app took to become usable.
type AppReadyPayload struct {
	// StartupMs is the time from process start to the frontend's first call.
	StartupMs int64 `json:"startupMs"`
}

// Seq identifies a session event and orders it.
type Seq struct {
	SessionID int64 `json:"sessionId"`
	Seq       int64 `json:"seq"`
}

// TodoItem is one task of a session's list; Status is pending,
// in_progress or done.
type TodoItem struct {
	Content string     `json:"content"`
	Status  TodoStatus `json:"status"`
}

// TodosPayload carries the whole task list that replaced the previous one.
type TodosPayload struct {
	Seq
	Todos []TodoItem `json:"todos"`
}

// StatePayload carries the agent state: idle, streaming,
// awaiting_approval, tool_executing or error.
type StatePayload struct {
	Seq
	State AgentStatus `json:"state"`
}

// StreamPayload appends text to the message being streamed.
type StreamPayload struct {
	Seq
	MessageID int64  `json:"messageId"`
	Text      string `json:"text,omitempty"`
	Thinking  string `json:"thinking,omitempty"`
}

// MessagePayload carries a committed message.
type MessagePayload struct {
	Seq
	Message Message `json:"message"`
}

// ToolPayload carries a tool call's current state.
type ToolPayload struct {
	Seq
	Call ToolCall `json:"call"`
}

// ToolOutputPayload appends live output to a running command's card.
type ToolOutputPayload struct {
	Seq
	ToolCallID string `json:"toolCallId"`
	Chunk      string `json:"chunk"`
}

// ApprovalPayload announces a pending decision. For a change, the frontend
// fetches the diff with GetChange(ID).
type ApprovalPayload struct {
	Seq
	Approval Approval `json:"approval"`
}

// ApprovalDonePayload says a pending decision is over. Outcome is
// approved, partial, edited, rejected or cancelled.
type ApprovalDonePayload struct {
	Seq
	ApprovalID string          `json:"approvalId"`
	Outcome    ApprovalOutcome `json:"outcome"`
}

// UsagePayload carries the session's totals and the context use.
type UsagePayload struct {
	Seq
	Usage Usage `json:"usage"`
}

// NoticePayload is an informational line in the chat. Kind is retry,
// compacted, loop_guard, limit, budget, stale (a file changed on disk
// after a proposal), mcp or rule ("always allow" did not store a rule);
// RetryInMs is set for retry.
type NoticePayload struct {
	Seq
	Kind      NoticeKind `json:"kind"`
	Text      string     `json:"text"`
	RetryInMs int64      `json:"retryInMs,omitempty"`
	// Reason is why a retry waits ("connection failed"), without the
	// delay: the window counts the delay down itself.
	Reason string `json:"reason,omitempty"`
}

// ErrorPayload carries a failure as a human sentence. Kind comes from the
// provider's typed errors (auth, rate_limit, network, ...) or "internal".
type ErrorPayload struct {
	Seq
	Kind      ErrorKind `json:"kind"`
	Message   string    `json:"message"`
	Retryable bool      `json:"retryable"`
}

// TurnDonePayload ends a turn. Reason is end_turn, cancelled, error,
// limit, loop_guard, budget or max_tokens.
type TurnDonePayload struct {
	Seq
	Reason TurnEndReason `json:"reason"`
}

// SessionPayload carries a session's summary after a change.
type SessionPayload struct {
	Session SessionSummary `json:"session"`
}

// Discard drops every event (headless runs with no listener).
type Discard struct{}

// Emit does nothing.
func (Discard) Emit(string, any) {}
