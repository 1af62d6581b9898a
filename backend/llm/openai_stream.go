package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// openaiChunk is one chat.completion.chunk (or a mid-stream error).
type openaiChunk struct {
	Choices []struct {
		Delta struct {
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"` // DeepSeek, vLLM
			Reasoning        string  `json:"reasoning"`         // OpenRouter, Ollama
			ToolCalls        []struct {
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
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// openaiParser assembles events of one answer.
type openaiParser struct {
	emit     func(Event) bool
	tools    map[int]*pendingTool
	last     int // key of the last tool call, for servers that omit index
	usage    *Usage
	finish   string
	finished bool // finish_reason arrived and the tools were closed
	hadTools bool // some tool call was closed
}

// parseOpenAI reads a chat completions stream. Tool calls are closed
// (EventToolDone) when finish_reason arrives; usage, which OpenAI sends in a
// last chunk with empty choices, and EventStop follow at [DONE] or at the
// end of the body. A body that ends before finish_reason and [DONE] was cut.
func parseOpenAI(body io.Reader, emit func(Event) bool) error {
	p := &openaiParser{emit: emit, tools: map[int]*pendingTool{}, last: -1}
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
		typ, msg := parseErrorBody(append(append([]byte(`{"error":`), c.Error...), '}'))
		e := &Error{Kind: KindServer, Type: typ, Message: msg}
		if k, ok := kindForType(typ); ok {
			e.Kind = k
		} else if code := statusCode(c.Error); code != 0 {
			e.Kind = kindForStatus(code)
		}
		if looksLikeContextTooLong(msg) {
			e.Kind = KindContextTooLong
		}
		return e
	}
	if c.Usage != nil {
		u := Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
		if d := c.Usage.PromptTokensDetails; d != nil && d.CachedTokens <= u.InputTokens {
			u.InputTokens -= d.CachedTokens // like Anthropic: input_tokens excludes cache reads
			u.CacheReadTokens = d.CachedTokens
		}
		p.usage = &u
	}
	for _, ch := range c.Choices {
		d := ch.Delta
		if s := d.ReasoningContent + d.Reasoning; s != "" {
			if !p.emit(Event{Type: EventThinkingDelta, Text: s}) {
				return ErrCancelled
			}
		}
		if d.Content != nil && *d.Content != "" {
			if !p.emit(Event{Type: EventTextDelta, Text: *d.Content}) {
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

// toolKey finds which call a fragment belongs to. Servers that omit index
// start a new call with an id and continue the last one without.
func (p *openaiParser) toolKey(index *int, id string, pos int) int {
	if index != nil {
		p.last = *index
		return *index
	}
	if id != "" || p.last < 0 {
		p.last = len(p.tools) + pos
		for p.tools[p.last] != nil {
			p.last++
		}
	}
	return p.last
}

// closeTools emits EventToolDone for every open call, in index order.
func (p *openaiParser) closeTools() bool {
	p.finished = true
	keys := make([]int, 0, len(p.tools))
	for k := range p.tools {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		t := p.tools[k]
		if t.name == "" { // arguments without a name cannot be called
			continue
		}
		input, err := toolInput(t.input)
		if !p.emit(Event{Type: EventToolDone, ToolID: t.id, ToolName: t.name, Input: input, Err: err}) {
			return false
		}
	}
	p.hadTools = p.hadTools || len(keys) > 0
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
