package fakellm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Script is what the server answers. Turns are served one per model call.
type Script struct {
	// APIKey, when set, is required (x-api-key or Authorization: Bearer);
	// other requests get a 401 in the provider's format.
	APIKey string `json:"apiKey,omitempty"`
	// Models is the list GET /v1/models returns (default: a Claude and a
	// GPT model).
	Models []string `json:"models,omitempty"`
	// ContextLengths gives models of the list a context_length, as
	// OpenRouter's model list does.
	ContextLengths map[string]int `json:"contextLengths,omitempty"`
	Turns          []Turn         `json:"turns"`
}

// Turn is one answer of the model, or one failure.
type Turn struct {
	// When restricts the turn to requests it matches; a turn without When
	// (and without Match) matches every request.
	When *When `json:"when,omitempty"`
	// Match is When for Go tests.
	Match func(Request) bool `json:"-"`
	// Repeat keeps the turn in the script after it is served.
	Repeat bool `json:"repeat,omitempty"`

	Thinking  string     `json:"thinking,omitempty"`
	Signature string     `json:"signature,omitempty"` // default "fakellm-signature" when Thinking is set
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// StreamTokens appends this many generated words of text, each in its
	// own event, written as fast as possible (for streaming benchmarks).
	StreamTokens int    `json:"streamTokens,omitempty"`
	Usage        *Usage `json:"usage,omitempty"` // default: estimated from the sizes
	// StopReason in Anthropic's words (end_turn, tool_use, max_tokens...);
	// default tool_use when there are tool calls, else end_turn.
	StopReason string `json:"stopReason,omitempty"`

	// Fixture is a file replayed byte for byte instead of a generated
	// answer; relative paths are relative to the script file. Raw is the
	// same with the bytes inline.
	Fixture string `json:"fixture,omitempty"`
	Raw     string `json:"raw,omitempty"`

	Fault *Fault `json:"fault,omitempty"`
}

// When matches a request by its last user message.
type When struct {
	LastUserContains   string `json:"lastUserContains,omitempty"`   // in the text of the last user message
	ToolResultContains string `json:"toolResultContains,omitempty"` // in a tool result of the last user message
	HasToolResult      bool   `json:"hasToolResult,omitempty"`      // the last user message carries tool results
	Model              string `json:"model,omitempty"`              // the requested model
}

// ToolCall is a tool call of a turn. Input is sent as the call's JSON
// arguments; RawInput, when set, is sent instead, verbatim (invalid JSON
// tests).
type ToolCall struct {
	ID       string          `json:"id,omitempty"` // default toolu_fake_<n> / call_fake_<n>
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input,omitempty"`
	RawInput string          `json:"rawInput,omitempty"`
}

// Usage is the token count a turn reports.
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
}

// Fault makes a turn fail.
type Fault struct {
	// Status answers with this HTTP status and Body (default: an error in
	// the provider's format) instead of a stream, with a retry-after header
	// when RetryAfter is set (seconds or an HTTP date).
	Status     int    `json:"status,omitempty"`
	Body       string `json:"body,omitempty"`
	RetryAfter string `json:"retryAfter,omitempty"`
	// DelayMs waits between events (and before the first).
	DelayMs int `json:"delayMs,omitempty"`
	// CutAfterEvents aborts the connection after this many events.
	CutAfterEvents int `json:"cutAfterEvents,omitempty"`
	// StallAfterEvents sends nothing more after this many events, keeping
	// the connection open until the client gives up (a silent server).
	StallAfterEvents int `json:"stallAfterEvents,omitempty"`
	// ErrorAfterEvents sends an error event (Anthropic `event: error`, an
	// OpenAI error chunk) after this many events and ends the stream;
	// ErrorType (default overloaded_error) and ErrorMessage describe it.
	ErrorAfterEvents int    `json:"errorAfterEvents,omitempty"`
	ErrorType        string `json:"errorType,omitempty"`
	ErrorMessage     string `json:"errorMessage,omitempty"`
}

// LoadScript reads a JSON script; fixture paths are made relative to its
// folder.
func LoadScript(path string) (Script, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	var s Script
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("fakellm: %s: %w", path, err)
	}
	for i := range s.Turns {
		if f := s.Turns[i].Fixture; f != "" && !filepath.IsAbs(f) {
			s.Turns[i].Fixture = filepath.Join(filepath.Dir(path), f)
		}
	}
	return s, nil
}

// matches reports whether the turn may answer r.
func (t *Turn) matches(r Request) bool {
	if t.Match != nil && !t.Match(r) {
		return false
	}
	w := t.When
	if w == nil {
		return true
	}
	if w.LastUserContains != "" && !strings.Contains(r.LastUserText, w.LastUserContains) {
		return false
	}
	if w.Model != "" && w.Model != r.Model {
		return false
	}
	if w.HasToolResult && len(r.ToolResults) == 0 {
		return false
	}
	if w.ToolResultContains != "" {
		for _, tr := range r.ToolResults {
			if strings.Contains(tr.Content, w.ToolResultContains) {
				return true
			}
		}
		return false
	}
	return true
}
