package llm

import "context"

// Request is one model call.
type Request struct {
	Model       string
	System      string
	Messages    []Message
	Tools       []ToolDef
	MaxTokens   int
	Temperature *float64
	// ThinkingBudget enables Anthropic's extended thinking with this many
	// tokens (0: off), interleaved with tool calls; the answer keeps
	// MaxTokens on top of it. Other providers ignore it.
	ThinkingBudget int
	// WebSearch offers the provider's own web search with at most this
	// many searches (0: not offered): Anthropic's server tool, or
	// OpenRouter's, in place of a tool of the same name in Tools. Set it
	// only where NativeSearchHost names a host.
	WebSearch int
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopRefusal   StopReason = "refusal"
	StopSequence  StopReason = "stop_sequence"
	// StopPauseTurn: Anthropic paused a long turn of its server tools
	// (its web search); the answer is sent back as it is to go on.
	StopPauseTurn StopReason = "pause_turn"
)

// EventType names a streamed event. The types up to EventToolDone carry
// parts of the answer; the others do not.
type EventType int

const (
	EventTextDelta        EventType = iota + 1 // Text
	EventThinkingDelta                         // Text (thinking), Signature when it arrives; Field, Origin (OpenAI-compatible servers)
	EventRedactedThinking                      // Text: the data of a whole redacted_thinking block
	EventToolStart                             // ToolID, ToolName
	EventToolDelta                             // ToolID, Text (a JSON fragment)
	EventToolDone                              // ToolID, ToolName, Input (complete JSON object); see Event.Err
	EventUsage                                 // Usage (cumulative for the call)
	EventRetry                                 // Retry (the request is retried after a failure)
	EventStop                                  // Stop; Text: the provider's explanation of a refusal, if it gave one
	EventError                                 // Err (typed *llm.Error where known); last event
	// The provider's own web search (Request.WebSearch):
	EventServerBlock // Block: a whole server_tool_use or web_search_tool_result block, kept as it came
	EventCitation    // Text: one citation (its JSON, as sent) of the text block being streamed
	EventTextBlock   // a text block of its own begins (sent only around cited text)
)

// RetryInfo tells the UI that a call is retried.
type RetryInfo struct {
	Attempt int
	Delay   int64 // milliseconds
	Reason  string
}

// Event is one item of a model's streamed answer. The channel returned by
// Provider.Stream closes after EventStop or EventError.
//
// When the model sends a tool input that is not a JSON object (invalid JSON,
// or cut by max_tokens), EventToolDone still arrives: Input holds the raw
// text and Err wraps ErrInvalidToolInput with a sentence the agent can send
// back as an error tool_result. The stream goes on; only EventError ends it.
// EventRetry's Retry.Attempt is the number of the retry (1 for the first).
type Event struct {
	Type      EventType
	Text      string
	Signature string
	// Field and Origin are set on thinking deltas of OpenAI-compatible
	// servers: the field the thinking came in (FieldReasoningContent or
	// FieldReasoning) and the host of the server; see ContentBlock.
	Field    string
	Origin   string
	ToolID   string
	ToolName string
	Input    []byte
	Block    *ContentBlock
	Usage    Usage
	Stop     StopReason
	Retry    *RetryInfo
	Err      error
}

// Provider is a model service. Implementations are safe for concurrent use.
type Provider interface {
	// Name is "anthropic" or "openai".
	Name() string
	// Stream starts a streamed call. Cancelling ctx closes the connection and
	// the channel soon after.
	Stream(ctx context.Context, req Request) (<-chan Event, error)
	// Complete makes a short non-streamed call and returns the answer's text.
	Complete(ctx context.Context, req Request) (string, Usage, error)
}
