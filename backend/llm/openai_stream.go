package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// openaiChunk is one chat.completion.chunk (or a mid-stream error).
type openaiChunk struct {
	Choices []struct {
		Delta struct {
			// Content is a string, or (Mistral's Magistral) an array of
			// typed parts; see contentParts.
			Content          json.RawMessage `json:"content"`
			ReasoningContent string          `json:"reasoning_content"` // DeepSeek, vLLM
			Reasoning        string          `json:"reasoning"`         // OpenRouter, Ollama
			// Annotations are the sources of OpenRouter's web search
			// (url_citation), each kept as it came.
			Annotations []json.RawMessage `json:"annotations"`
			ToolCalls   []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		// OpenRouter's searches (its web search server tool).
		ServerToolUseDetails *struct {
			WebSearchRequests int `json:"web_search_requests"`
		} `json:"server_tool_use_details"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// openaiParser assembles events of one answer.
type openaiParser struct {
	emit     func(Event) bool
	origin   string // host of the server, set on thinking deltas (Event.Origin)
	tools    map[int]*pendingTool
	last     int // key of the last tool call, for servers that omit index
	usage    *Usage
	finish   string
	finished bool // finish_reason arrived and the tools were closed
	hadTools bool // some tool call was closed
}

// parseOpenAIFrom reads a chat completions stream from the server at host
// origin, which thinking deltas carry (Event.Origin). Tool calls are closed
// (EventToolDone) when finish_reason arrives; usage, which OpenAI sends in a
// last chunk with empty choices, and EventStop follow at [DONE] or at the
// end of the body. A body that ends before finish_reason and [DONE] was cut.
func parseOpenAIFrom(origin string, body io.Reader, emit func(Event) bool) error {
	p := &openaiParser{emit: emit, origin: origin, tools: map[int]*pendingTool{}, last: -1}
	r := NewSSEReader(body)
	for {
		sse, err := r.Next()
		if err == io.EOF && p.finished {
			return p.end()
		}
		if err != nil {
			return err
		}
		if bytes.Equal(bytes.TrimSpace(sse.Data), []byte("[DONE]")) {
			return p.end()
		}
		if err := p.handle(sse.Data); err != nil {
			if sse.Unterminated && errors.Is(err, ErrInvalidResponse) {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
}

func (p *openaiParser) handle(data []byte) error {
	var c openaiChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return &Error{Kind: KindInvalidResponse, Message: "bad JSON in a stream chunk: " + truncate(string(data), 200), Err: err}
	}
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		return chunkError(c.Error)
	}
	if c.Usage != nil {
		p.usage = openaiUsage(c.Usage.PromptTokens, c.Usage.CompletionTokens, c.Usage.PromptTokensDetails)
		if d := c.Usage.ServerToolUseDetails; d != nil {
			p.usage.WebSearches = max(0, d.WebSearchRequests)
		}
	}
	for _, ch := range c.Choices {
		d := ch.Delta
		if err := p.thinking(d.ReasoningContent, d.Reasoning); err != nil {
			return err
		}
		for _, a := range d.Annotations {
			if !p.emit(Event{Type: EventCitation, Text: string(a)}) {
				return ErrCancelled
			}
		}
		parts, err := contentParts(d.Content)
		if err != nil {
			return &Error{Kind: KindInvalidResponse, Message: "bad content in a stream chunk: " + truncate(string(data), 200), Err: err}
		}
		for _, part := range parts {
			ev := Event{Type: EventTextDelta, Text: part.text}
			if part.thinking {
				ev.Type = EventThinkingDelta
			}
			if part.text != "" && !p.emit(ev) {
				return ErrCancelled
			}
		}
		for i, tc := range d.ToolCalls {
			key := p.toolKey(tc.Index, tc.ID, i)
			t := p.tools[key]
			if t == nil {
				t = &pendingTool{id: tc.ID}
				if t.id == "" {
					t.id = fmt.Sprintf("call_%d", key)
				}
				p.tools[key] = t
			}
			if t.name == "" && tc.Function.Name != "" {
				t.name = tc.Function.Name
				if !p.emit(Event{Type: EventToolStart, ToolID: t.id, ToolName: t.name}) {
					return ErrCancelled
				}
			}
			if a := tc.Function.Arguments; a != "" {
				t.input = append(t.input, a...)
				if !p.emit(Event{Type: EventToolDelta, ToolID: t.id, Text: a}) {
					return ErrCancelled
				}
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			p.finish = *ch.FinishReason
			if !p.closeTools() {
				return ErrCancelled
			}
		}
	}
	return nil
}

// thinking emits the reasoning of a delta with the field it came in, which
// is the field it is sent back in (see openaiMessages). A server that
// fills both fields with the same text (vLLM while it renamed
// reasoning_content to reasoning) is heard once.
func (p *openaiParser) thinking(content, reasoning string) error {
	for _, f := range []struct{ name, text string }{{FieldReasoningContent, content}, {FieldReasoning, reasoning}} {
		if f.text == "" || (f.name == FieldReasoning && reasoning == content) {
			continue
		}
		if !p.emit(Event{Type: EventThinkingDelta, Text: f.text, Field: f.name, Origin: p.origin}) {
			return ErrCancelled
		}
	}
	return nil
}

// contentPart is a piece of a delta's content: answer text or thinking.
type contentPart struct {
	text     string
	thinking bool
}

// contentParts reads a delta's content: null, a string, or an array of
// typed parts as Mistral's Magistral models stream it,
// [{"type":"thinking","thinking":[{"type":"text","text":"..."}]}] then
// [{"type":"text","text":"..."}] (and later plain strings). Parts of other
// types (references...) carry no text for the answer and are skipped.
func contentParts(raw json.RawMessage) ([]contentPart, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return []contentPart{{text: s}}, err
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, err
	}
	var out []contentPart
	for _, part := range parts {
		switch part.Type {
		case "text":
			out = append(out, contentPart{text: part.Text})
		case "thinking":
			inner, err := contentParts(part.Thinking)
			if err != nil {
				return nil, err
			}
			for _, in := range inner {
				out = append(out, contentPart{text: in.text, thinking: true})
			}
		}
	}
	return out, nil
}

// openaiUsage converts a usage chunk. OpenAI's prompt_tokens includes
// cached_tokens, which Pilot counts apart (like Anthropic's input_tokens,
// InputTokens excludes cache reads). Some proxies in front of Anthropic
// report prompt_tokens without the cache reads, as Anthropic does: cached
// tokens above prompt_tokens can only mean that, so both numbers are kept
// as they are. No count comes out negative.
func openaiUsage(prompt, completion int, details *struct {
	CachedTokens int `json:"cached_tokens"`
}) *Usage {
	u := Usage{InputTokens: max(0, prompt), OutputTokens: max(0, completion)}
	if details != nil && details.CachedTokens > 0 {
		u.CacheReadTokens = details.CachedTokens
		if details.CachedTokens <= u.InputTokens {
			u.InputTokens -= details.CachedTokens
		}
	}
	return &u
}

// chunkError reads the error object of an error chunk. The server's own
// type, else its code (OpenRouter's "code": 400, Groq's "tool_use_failed"),
// is kept for the sentence, and a code that is an HTTP status decides the
// kind when the type does not.
func chunkError(raw json.RawMessage) *Error {
	typ, msg := parseErrorBody(append(append([]byte(`{"error":`), raw...), '}'))
	code := errorCode(raw)
	e := &Error{Kind: KindServer, Type: typ, Message: msg}
	if typ == "" || code == codeToolUseFailed {
		e.Type = code
	}
	if k, ok := kindForType(typ); ok {
		e.Kind = k
	} else if status := statusCode(raw); status != 0 {
		e.Kind = kindForStatus(status)
	}
	if code == codeToolUseFailed {
		// Groq: the model wrote a tool call its parser could not read. The
		// same request usually succeeds on a second try.
		e.Kind, e.retryOnce = KindBadRequest, true
	}
	if looksLikeContextTooLong(msg) {
		e.Kind = KindContextTooLong
	}
	return e
}

// codeToolUseFailed is Groq's error code for a malformed tool call.
const codeToolUseFailed = "tool_use_failed"

// errorCode returns an error object's code, a string or a number, as text.
func errorCode(raw json.RawMessage) string {
	var obj struct {
		Code json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) != nil || len(obj.Code) == 0 || bytes.Equal(obj.Code, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(obj.Code, &s) == nil {
		if s == "None" { // LiteLLM prints Python's None
			return ""
		}
		return s
	}
	return string(obj.Code)
}

// statusCode returns the code of an error chunk when it is an HTTP status,
// as vLLM ("code": 400) and LiteLLM ("code": "429") send it; 0 otherwise.
// It decides whether an error of a type Pilot does not know is retried.
func statusCode(raw json.RawMessage) int {
	var obj struct {
		Code json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.Trim(string(obj.Code), `"`))
	if err != nil || n < 400 || n > 599 {
		return 0
	}
	return n
}

// toolKey finds which call an entry of a delta's tool_calls belongs to.
// An entry continues the current call only when it has the call's index,
// or has no index and an empty or the same id, and is the first entry of
// its delta: a second entry of the same tool_calls array is always another
// call. Gemini's OpenAI-compatible endpoint sends whole calls without
// index; proxies in front of it send them with id "".
func (p *openaiParser) toolKey(index *int, id string, pos int) int {
	if index != nil {
		p.last = *index
		return *index
	}
	if cur := p.tools[p.last]; p.last >= 0 && cur != nil && pos == 0 && (id == "" || id == cur.id) {
		return p.last
	}
	p.last = len(p.tools)
	for p.tools[p.last] != nil {
		p.last++
	}
	return p.last
}

// closeTools emits EventToolDone for every open call, in index order.
func (p *openaiParser) closeTools() bool {
	p.finished = true
	for _, k := range slices.Sorted(maps.Keys(p.tools)) {
		t := p.tools[k]
		if t.name == "" { // arguments without a name cannot be called
			continue
		}
		input, err := toolInput(t.input)
		if !p.emit(Event{Type: EventToolDone, ToolID: t.id, ToolName: t.name, Input: input, Err: err}) {
			return false
		}
	}
	p.hadTools = p.hadTools || len(p.tools) > 0
	clear(p.tools)
	return true
}

// end emits the usage and the stop reason.
func (p *openaiParser) end() error {
	if !p.finished && !p.closeTools() {
		return ErrCancelled
	}
	if p.usage != nil && !p.emit(Event{Type: EventUsage, Usage: *p.usage}) {
		return ErrCancelled
	}
	p.emit(Event{Type: EventStop, Stop: openaiStop(p.finish, p.hadTools)})
	return nil
}

// openaiStop maps finish_reason. Ollama says "stop" after tool calls, so
// tool calls win over it.
func openaiStop(finish string, hadTools bool) StopReason {
	switch finish {
	case "length":
		return StopMaxTokens
	case "content_filter":
		return StopRefusal
	case "tool_calls", "function_call":
		return StopToolUse
	}
	if hadTools {
		return StopToolUse
	}
	if finish == "" || finish == "stop" {
		return StopEndTurn
	}
	return StopReason(finish)
}
