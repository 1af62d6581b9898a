package llm

import (
	"encoding/json"
	"io"
)

// anthropicEvent is the union of the Messages API's stream events.
type anthropicEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage anthropicUsage `json:"usage"`
	} `json:"message"`
	ContentBlock *anthropicBlockStart `json:"content_block"`
	Delta        *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		// Citation is one citation of a text block (citations_delta).
		Citation   json.RawMessage `json:"citation"`
		StopReason string          `json:"stop_reason"`
		// StopDetails comes with stop_reason "refusal": why the request
		// was declined.
		StopDetails *struct {
			Category    string `json:"category"`
			Explanation string `json:"explanation"`
		} `json:"stop_details"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// anthropicBlockStart is the block a content_block_start begins, with its
// JSON as it came (raw).
type anthropicBlockStart struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Data      string          `json:"data"`
	ToolUseID string          `json:"tool_use_id"`
	Citations json.RawMessage `json:"citations"`
	raw       json.RawMessage
}

func (s *anthropicBlockStart) UnmarshalJSON(b []byte) error {
	type fields anthropicBlockStart
	if err := json.Unmarshal(b, (*fields)(s)); err != nil {
		return err
	}
	s.raw = append(json.RawMessage(nil), b...)
	return nil
}

type anthropicUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	ServerToolUse            *struct {
		WebSearchRequests int `json:"web_search_requests"`
	} `json:"server_tool_use"`
}

// mergeAnthropic takes the non-zero counts of o (message_delta repeats some counts
// cumulatively).
func (u *Usage) mergeAnthropic(o anthropicUsage) {
	if o.InputTokens > 0 {
		u.InputTokens = o.InputTokens
	}
	if o.OutputTokens > 0 {
		u.OutputTokens = o.OutputTokens
	}
	if o.CacheCreationInputTokens > 0 {
		u.CacheWriteTokens = o.CacheCreationInputTokens
	}
	if o.CacheReadInputTokens > 0 {
		u.CacheReadTokens = o.CacheReadInputTokens
	}
	if o.ServerToolUse != nil && o.ServerToolUse.WebSearchRequests > 0 {
		u.WebSearches = o.ServerToolUse.WebSearchRequests
	}
}

// pendingSearch is a server_tool_use block whose input is arriving.
type pendingSearch struct {
	pendingTool
	start json.RawMessage
}

// pendingTool is a tool call whose input is still arriving.
type pendingTool struct {
	id, name string
	input    []byte
}

// anthropicParser assembles events of one answer.
type anthropicParser struct {
	emit  func(Event) bool
	tools map[int]*pendingTool
	// searches are the provider's own searches whose query is arriving,
	// with the JSON of their start.
	searches map[int]*pendingSearch
	cited    bool // the last text block began with citations
	usage    Usage
	stop     StopReason
	why      string // stop_details.explanation of a refusal
}

// parseAnthropic reads a Messages API stream. It emits EventUsage at
// message_delta and EventStop at message_stop; `event: error` ends the
// stream with the provider's typed error.
func parseAnthropic(body io.Reader, emit func(Event) bool) error {
	p := &anthropicParser{emit: emit, tools: map[int]*pendingTool{}, searches: map[int]*pendingSearch{}}
	r := NewSSEReader(body)
	for {
		sse, err := r.Next()
		if err != nil {
			return err // io.EOF before message_stop: the stream was cut
		}
		done, err := p.handle(sse)
		if err != nil || done {
			return err
		}
	}
}

func (p *anthropicParser) handle(sse SSEEvent) (done bool, err error) {
	if text, ok := anthropicTextDelta(sse.Data); ok {
		if !p.emit(Event{Type: EventTextDelta, Text: text}) {
			return true, ErrCancelled
		}
		return false, nil
	}
	var ev anthropicEvent
	if err := json.Unmarshal(sse.Data, &ev); err != nil {
		if sse.Unterminated {
			return true, io.ErrUnexpectedEOF
		}
		return false, &Error{Kind: KindInvalidResponse, Message: "bad JSON in a stream event: " + truncate(string(sse.Data), 200), Err: err}
	}
	if ev.Type == "" {
		ev.Type = sse.Event
	}
	ok := true
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			p.usage.mergeAnthropic(ev.Message.Usage)
		}
	case "content_block_start":
		ok = p.blockStart(ev)
	case "content_block_delta":
		ok = p.blockDelta(ev)
	case "content_block_stop":
		if s := p.searches[ev.Index]; s != nil {
			delete(p.searches, ev.Index)
			ok = p.searched(s)
		}
		if t := p.tools[ev.Index]; t != nil {
			delete(p.tools, ev.Index)
			input, ierr := toolInput(t.input)
			ok = p.emit(Event{Type: EventToolDone, ToolID: t.id, ToolName: t.name, Input: input, Err: ierr})
		}
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			p.stop = StopReason(ev.Delta.StopReason)
		}
		if ev.Delta != nil && ev.Delta.StopDetails != nil {
			p.why = ev.Delta.StopDetails.Explanation
		}
		if ev.Usage != nil {
			p.usage.mergeAnthropic(*ev.Usage)
		}
		ok = p.emit(Event{Type: EventUsage, Usage: p.usage})
	case "message_stop":
		if p.stop == "" {
			p.stop = StopEndTurn
		}
		p.emit(Event{Type: EventStop, Stop: p.stop, Text: p.why})
		return true, nil
	case "error":
		e := &Error{Kind: KindServer, Type: "error"}
		if ev.Error != nil {
			e.Type, e.Message = ev.Error.Type, ev.Error.Message
			if k, known := kindForType(ev.Error.Type); known {
				e.Kind = k
			}
			if looksLikeContextTooLong(e.Message) {
				e.Kind = KindContextTooLong
			}
		}
		return true, e
	}
	// ping and unknown event types are ignored, as the API asks.
	if !ok {
		return true, ErrCancelled
	}
	return false, nil
}

func (p *anthropicParser) blockStart(ev anthropicEvent) bool {
	cb := ev.ContentBlock
	if cb == nil {
		return true
	}
	switch cb.Type {
	case "text":
		// A cited text block, and the one after it, stand apart: each
		// keeps its own citations.
		cited := len(cb.Citations) > 0 && string(cb.Citations) != "null"
		if cited || p.cited {
			if !p.emit(Event{Type: EventTextBlock}) {
				return false
			}
		}
		p.cited = cited
		return p.text(EventTextDelta, cb.Text)
	case "server_tool_use":
		p.searches[ev.Index] = &pendingSearch{pendingTool: pendingTool{id: cb.ID, name: cb.Name}, start: cb.raw}
		return true
	case "web_search_tool_result": // whole in its start
		return p.emit(Event{Type: EventServerBlock, Block: &ContentBlock{Type: BlockWebSearchResult, ToolUseID: cb.ToolUseID, Raw: cb.raw}})
	case "thinking":
		return p.text(EventThinkingDelta, cb.Thinking)
	case "redacted_thinking": // the whole block is in its start; no deltas follow
		return p.text(EventRedactedThinking, cb.Data)
	case "tool_use":
		p.tools[ev.Index] = &pendingTool{id: cb.ID, name: cb.Name}
		return p.emit(Event{Type: EventToolStart, ToolID: cb.ID, ToolName: cb.Name})
	}
	return true
}

// text emits a block's text (a delta, or the text a block starts with),
// if there is any.
func (p *anthropicParser) text(t EventType, s string) bool {
	if s == "" {
		return true
	}
	return p.emit(Event{Type: t, Text: s})
}

func (p *anthropicParser) blockDelta(ev anthropicEvent) bool {
	d := ev.Delta
	if d == nil {
		return true
	}
	switch d.Type {
	case "text_delta":
		return p.text(EventTextDelta, d.Text)
	case "thinking_delta":
		return p.text(EventThinkingDelta, d.Thinking)
	case "signature_delta":
		return p.emit(Event{Type: EventThinkingDelta, Signature: d.Signature})
	case "citations_delta":
		if len(d.Citation) == 0 {
			return true
		}
		return p.emit(Event{Type: EventCitation, Text: string(d.Citation)})
	case "input_json_delta":
		if s := p.searches[ev.Index]; s != nil {
			s.input = append(s.input, d.PartialJSON...)
			return true
		}
		t := p.tools[ev.Index]
		if t == nil || d.PartialJSON == "" {
			return true
		}
		t.input = append(t.input, d.PartialJSON...)
		return p.emit(Event{Type: EventToolDelta, ToolID: t.id, Text: d.PartialJSON})
	}
	return true
}

// searched emits a finished server_tool_use block: the block as it began,
// with the query its deltas streamed.
func (p *anthropicParser) searched(s *pendingSearch) bool {
	input, err := toolInput(s.input)
	if err != nil {
		input = []byte("{}")
	}
	b := ContentBlock{Type: BlockServerToolUse, ID: s.id, Name: s.name, Input: input, Raw: replaceInput(s.start, input)}
	return p.emit(Event{Type: EventServerBlock, Block: &b})
}
