package fakellm

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Request is a request the server received, decoded for assertions.
type Request struct {
	Time   time.Time      `json:"time"`
	Method string         `json:"method"`
	Path   string         `json:"path"`
	Format string         `json:"format"` // "anthropic", "openai" or "" (other endpoints)
	Header http.Header    `json:"header"` // x-api-key and Authorization redacted
	Body   map[string]any `json:"body,omitempty"`
	Model  string         `json:"model,omitempty"`
	System string         `json:"system,omitempty"`
	// LastUserText is the text of the last user message.
	LastUserText string `json:"lastUserText,omitempty"`
	// ToolResults are the tool results of the last user message (OpenAI:
	// the "tool" messages after the last assistant message).
	ToolResults []ToolResult `json:"toolResults,omitempty"`
	Tools       []string     `json:"tools,omitempty"` // names of the tools offered
	Turn        int          `json:"turn"`            // index of the turn served, -1 for none
}

// ToolResult is one tool result sent back to the model.
type ToolResult struct {
	ToolUseID string `json:"toolUseId"`
	Content   string `json:"content"`
	IsError   bool   `json:"isError,omitempty"`
}

// redactHeaders hides the keys of a request's headers.
func redactHeaders(h http.Header) http.Header {
	out := h.Clone()
	if out.Get("X-Api-Key") != "" {
		out.Set("X-Api-Key", "[REDACTED]")
	}
	if a := out.Get("Authorization"); a != "" {
		scheme, _, _ := strings.Cut(a, " ")
		out.Set("Authorization", scheme+" [REDACTED]")
	}
	return out
}

// wireMessage is a message of either format.
type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// decode fills the summary fields from the raw body.
func (r *Request) decode(raw []byte) {
	_ = json.Unmarshal(raw, &r.Body)
	var b struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []wireMessage   `json:"messages"`
		Tools    []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(raw, &b)
	r.Model = b.Model
	r.System = textOf(b.System)
	for _, t := range b.Tools {
		r.Tools = append(r.Tools, t.Name+t.Function.Name)
	}
	msgs := b.Messages
	if r.Format == "openai" {
		r.decodeOpenAI(msgs)
		return
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		var blocks []wireBlock
		if json.Unmarshal(msgs[i].Content, &blocks) != nil {
			r.LastUserText = textOf(msgs[i].Content)
			return
		}
		var text []string
		for _, bl := range blocks {
			switch bl.Type {
			case "text":
				text = append(text, bl.Text)
			case "tool_result":
				r.ToolResults = append(r.ToolResults, ToolResult{ToolUseID: bl.ToolUseID, Content: textOf(bl.Content), IsError: bl.IsError})
			}
		}
		r.LastUserText = strings.Join(text, "\n")
		return
	}
}

// decodeOpenAI reads the messages after the last assistant message: the
// "tool" messages are the tool results, the "user" one the text.
func (r *Request) decodeOpenAI(msgs []wireMessage) {
	for _, m := range msgs {
		if m.Role == "system" {
			r.System = textOf(m.Content)
			break
		}
	}
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != "assistant"; i-- {
		m := msgs[i]
		switch m.Role {
		case "tool":
			r.ToolResults = append([]ToolResult{{ToolUseID: m.ToolCallID, Content: textOf(m.Content)}}, r.ToolResults...)
		case "user":
			if r.LastUserText == "" {
				r.LastUserText = textOf(m.Content)
			}
		}
	}
}

// textOf reads content that is a string or a list of text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []wireBlock
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
