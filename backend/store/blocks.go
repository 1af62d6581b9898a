package store

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"pilot/backend/llm"
)

// decodeBlocks unmarshals a message's stored content. What encodeBlocks
// wrote with strings that need no JSON escape (most text, tool output) is
// read by a scanner that knows that exact form: its strings are slices of
// content, not copies, and it is several times faster than encoding/json.
// Anything else, or anything it does not expect, goes to encoding/json.
// Both give the same result.
func decodeBlocks(content string, out *[]llm.ContentBlock) error {
	if bs, ok := scanBlocks(content); ok {
		*out = bs
		return nil
	}
	return json.Unmarshal([]byte(content), out)
}

// blockStrings are the string fields of llm.ContentBlock in the order
// json.Marshal writes them, with "input" (raw JSON) between name and
// tool_use_id and "is_error" (true when present) last.
var blockStrings = []struct {
	key   string
	field func(*llm.ContentBlock) *string
}{
	{"text", func(b *llm.ContentBlock) *string { return &b.Text }},
	{"command", func(b *llm.ContentBlock) *string { return &b.Command }},
	{"thinking", func(b *llm.ContentBlock) *string { return &b.Thinking }},
	{"signature", func(b *llm.ContentBlock) *string { return &b.Signature }},
	{"field", func(b *llm.ContentBlock) *string { return &b.Field }},
	{"origin", func(b *llm.ContentBlock) *string { return &b.Origin }},
	{"data", func(b *llm.ContentBlock) *string { return &b.Data }},
	{"id", func(b *llm.ContentBlock) *string { return &b.ID }},
	{"name", func(b *llm.ContentBlock) *string { return &b.Name }},
	{"tool_use_id", func(b *llm.ContentBlock) *string { return &b.ToolUseID }},
	{"content", func(b *llm.ContentBlock) *string { return &b.Content }},
}

// scanBlocks reads the form json.Marshal gives []llm.ContentBlock, with
// plain strings only; ok is false for anything else.
func scanBlocks(p string) (bs []llm.ContentBlock, ok bool) {
	if len(p) < 2 || p[0] != '[' {
		return nil, false
	}
	p = p[1:]
	for len(p) > 0 && p[0] == '{' {
		var b llm.ContentBlock
		var s string
		if s, p, ok = scanField(p[1:], `"type":"`); !ok {
			return nil, false
		}
		b.Type = llm.BlockType(s)
		for i, f := range blockStrings {
			if f.key == "tool_use_id" && strings.HasPrefix(p, `,"input":`) {
				n := rawEnd(p[len(`,"input":`):])
				if n <= 0 {
					return nil, false
				}
				b.Input = json.RawMessage(p[len(`,"input":`) : len(`,"input":`)+n])
				p = p[len(`,"input":`)+n:]
			}
			if strings.HasPrefix(p, `,"`+f.key+`":"`) {
				if s, p, ok = scanField(p[1:], `"`+blockStrings[i].key+`":"`); !ok {
					return nil, false
				}
				*f.field(&b) = s
			}
		}
		if strings.HasPrefix(p, `,"is_error":true`) {
			b.IsError, p = true, p[len(`,"is_error":true`):]
		}
		if len(p) == 0 || p[0] != '}' {
			return nil, false
		}
		bs, p = append(bs, b), p[1:]
		if len(p) > 0 && p[0] == ',' && len(p) > 1 && p[1] == '{' {
			p = p[1:]
		}
	}
	if len(p) != 1 || p[0] != ']' {
		return nil, false
	}
	if bs == nil {
		bs = []llm.ContentBlock{}
	}
	return bs, true
}

// scanField reads key (ending in the opening quote) and a plain string
// value: valid UTF-8 without quote, backslash or control character.
func scanField(p, key string) (string, string, bool) {
	if !strings.HasPrefix(p, key) {
		return "", "", false
	}
	p = p[len(key):]
	end := strings.IndexByte(p, '"')
	if end < 0 || !plainJSONString(p[:end]) {
		return "", "", false
	}
	return p[:end], p[end+1:], true
}

// rawEnd returns the length of the JSON object or array at the start of
// p (content the database checked is valid JSON), or 0.
func rawEnd(p string) int {
	if len(p) == 0 || (p[0] != '{' && p[0] != '[') {
		return 0
	}
	depth, inString := 0, false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// plainJSONString reports whether b, put between quotes, is a JSON string
// that means exactly its bytes: valid UTF-8 with no quote, backslash or
// control character.
func plainJSONString(b string) bool {
	for i := 0; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(b)
}
