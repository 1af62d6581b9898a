package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// frames yields the server-sent events of one answer, one at a time, so
// even millions of generated tokens take no memory up front.
type frames = func(yield func([]byte) bool)

var lorem = strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")

// words splits text into word-sized deltas that keep their spaces.
func words(text string) []string {
	var out []string
	for _, w := range strings.SplitAfter(text, " ") {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// pieces cuts s into up to n parts at rune boundaries, as providers cut tool
// arguments.
func pieces(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		size := max(len(s)/n, 1)
		for size < len(s) && !utf8.RuneStart(s[size]) {
			size++
		}
		out = append(out, s[:size])
		s, n = s[size:], max(n-1, 1)
	}
	return out
}

// toolInput is the argument text of a call.
func toolInput(c ToolCall) string {
	if c.RawInput != "" {
		return c.RawInput
	}
	if len(c.Input) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, c.Input) != nil {
		return string(c.Input)
	}
	return b.String()
}

func toolID(prefix string, req Request, c ToolCall, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("%s_fake_%d_%d", prefix, req.Turn, i)
}

// usage is the turn's usage, or an estimate of about 4 bytes a token.
func usage(t Turn, bodyLen int) Usage {
	if t.Usage != nil {
		return *t.Usage
	}
	out := len(t.Text) + len(t.Thinking)
	for _, c := range t.ToolCalls {
		out += len(toolInput(c)) + len(c.Name)
	}
	return Usage{InputTokens: bodyLen/4 + 1, OutputTokens: out/4 + t.StreamTokens + 1}
}

func stopReason(t Turn) string {
	switch {
	case t.StopReason != "":
		return t.StopReason
	case len(t.ToolCalls) > 0:
		return "tool_use"
	}
	return "end_turn"
}

func sse(event string, v any) []byte {
	data, _ := json.Marshal(v)
	if event == "" {
		return fmt.Appendf(nil, "data: %s\n\n", data)
	}
	return fmt.Appendf(nil, "event: %s\ndata: %s\n\n", event, data)
}

type obj = map[string]any

// anthropicFrames renders a turn as a Messages API stream.
func anthropicFrames(t Turn, req Request, bodyLen int) frames {
	u := usage(t, bodyLen)
	return func(yield func([]byte) bool) {
		ev := func(name string, v obj) bool { v["type"] = name; return yield(sse(name, v)) }
		if !ev("message_start", obj{"message": obj{"id": fmt.Sprintf("msg_fake_%d", req.Turn), "type": "message", "role": "assistant",
			"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": obj{"input_tokens": u.InputTokens, "output_tokens": 1, "cache_read_input_tokens": u.CacheReadTokens, "cache_creation_input_tokens": u.CacheWriteTokens}}}) ||
			!ev("ping", obj{}) {
			return
		}
		index := 0
		block := func(start obj, deltas []obj) bool {
			if !ev("content_block_start", obj{"index": index, "content_block": start}) {
				return false
			}
			for _, d := range deltas {
				if !ev("content_block_delta", obj{"index": index, "delta": d}) {
					return false
				}
			}
			index++
			return ev("content_block_stop", obj{"index": index - 1})
		}
		if t.Thinking != "" {
			var ds []obj
			for _, w := range words(t.Thinking) {
				ds = append(ds, obj{"type": "thinking_delta", "thinking": w})
			}
			sig := t.Signature
			if sig == "" {
				sig = "fakellm-signature"
			}
			if !block(obj{"type": "thinking", "thinking": ""}, append(ds, obj{"type": "signature_delta", "signature": sig})) {
				return
			}
		}
		if t.Text != "" || t.StreamTokens > 0 {
			if !ev("content_block_start", obj{"index": index, "content_block": obj{"type": "text", "text": ""}}) {
				return
			}
			for text := range textDeltas(t) {
				if !ev("content_block_delta", obj{"index": index, "delta": obj{"type": "text_delta", "text": text}}) {
					return
				}
			}
			if !ev("content_block_stop", obj{"index": index}) {
				return
			}
			index++
		}
		for i, c := range t.ToolCalls {
			var ds []obj
			for _, p := range pieces(toolInput(c), 3) {
				ds = append(ds, obj{"type": "input_json_delta", "partial_json": p})
			}
			if !block(obj{"type": "tool_use", "id": toolID("toolu", req, c, i), "name": c.Name, "input": obj{}}, ds) {
				return
			}
		}
		if !ev("message_delta", obj{"delta": obj{"stop_reason": stopReason(t), "stop_sequence": nil}, "usage": obj{"output_tokens": u.OutputTokens}}) {
			return
		}
		ev("message_stop", obj{})
	}
}

// textDeltas yields the turn's text word by word, then StreamTokens words.
func textDeltas(t Turn) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for _, w := range words(t.Text) {
			if !yield(w) {
				return
			}
		}
		for i := range t.StreamTokens {
			if !yield(lorem[i%len(lorem)] + " ") {
				return
			}
		}
	}
}

// openaiFrames renders a turn as a chat completions stream, with a usage
// chunk when the request asked for it.
func openaiFrames(t Turn, req Request, bodyLen int) frames {
	u := usage(t, bodyLen)
	id := fmt.Sprintf("chatcmpl-fake-%d", req.Turn)
	chunk := func(delta obj, finish any) []byte {
		return sse("", obj{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model,
			"choices": []obj{{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	return func(yield func([]byte) bool) {
		if !yield(chunk(obj{"role": "assistant", "content": nil}, nil)) {
			return
		}
		for _, w := range words(t.Thinking) {
			if !yield(chunk(obj{"reasoning_content": w}, nil)) {
				return
			}
		}
		for text := range textDeltas(t) {
			if !yield(chunk(obj{"content": text}, nil)) {
				return
			}
		}
		for i, c := range t.ToolCalls {
			call := obj{"index": i, "id": toolID("call", req, c, i), "type": "function", "function": obj{"name": c.Name, "arguments": ""}}
			if !yield(chunk(obj{"tool_calls": []obj{call}}, nil)) {
				return
			}
			for _, p := range pieces(toolInput(c), 3) {
				if !yield(chunk(obj{"tool_calls": []obj{{"index": i, "function": obj{"arguments": p}}}}, nil)) {
					return
				}
			}
		}
		if !yield(chunk(obj{}, openaiFinish(stopReason(t)))) {
			return
		}
		if opts, _ := req.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
			usage := obj{"prompt_tokens": u.InputTokens + u.CacheReadTokens, "completion_tokens": u.OutputTokens,
				"total_tokens": u.InputTokens + u.CacheReadTokens + u.OutputTokens, "prompt_tokens_details": obj{"cached_tokens": u.CacheReadTokens}}
			if !yield(sse("", obj{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model, "choices": []obj{}, "usage": usage})) {
				return
			}
		}
		yield([]byte("data: [DONE]\n\n"))
	}
}

func openaiFinish(stop string) string {
	switch stop {
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return "stop"
}

// errorFrame is the mid-stream error of a fault.
func errorFrame(format string, f *Fault) []byte {
	typ, msg := f.ErrorType, f.ErrorMessage
	if typ == "" {
		typ = "overloaded_error"
	}
	if msg == "" {
		msg = "Overloaded"
	}
	if format == "openai" {
		return sse("", obj{"error": obj{"type": typ, "message": msg}})
	}
	return sse("error", obj{"type": "error", "error": obj{"type": typ, "message": msg}})
}
