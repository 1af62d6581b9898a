package llm

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Nearly every event of a long answer is a text delta, and decoding it into
// anthropicEvent by reflection costs more than everything else the stream
// does with it (BenchmarkAnthropicParse). anthropicTextDelta reads that
// event in the exact shape the API sends,
//
//	{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"..."}}
//
// and says ok=false for anything else: other field orders, spaces, other
// delta types, any doubt. The caller then decodes it in full, so the fast
// path never decides anything the full decoder would decide otherwise
// (FuzzAnthropicTextDelta compares the two).
var (
	deltaHead = []byte(`{"type":"content_block_delta","index":`)
	deltaMid  = []byte(`,"delta":{"type":"text_delta","text":"`)
	deltaTail = []byte(`"}}`)
)

func anthropicTextDelta(data []byte) (text string, ok bool) {
	rest, ok := bytes.CutPrefix(data, deltaHead)
	if !ok {
		return "", false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	// A JSON number has no leading zero; a long one might overflow int.
	if digits == 0 || digits > 9 || (digits > 1 && rest[0] == '0') {
		return "", false
	}
	if rest, ok = bytes.CutPrefix(rest[digits:], deltaMid); !ok {
		return "", false
	}
	body, ok := bytes.CutSuffix(rest, deltaTail)
	if !ok {
		return "", false
	}
	plain := true
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"':
			return "", false // the string ended before the tail: another shape
		case c < 0x20:
			return "", false // not valid JSON: the full decoder reports it
		case c == '\\':
			plain = false
			i++ // the escaped byte cannot end the string
		}
	}
	if plain {
		if !utf8.Valid(body) {
			return "", false
		}
		return string(body), true
	}
	// Escapes (newlines, quotes, \u sequences in code) are common: decode
	// only the string, with its quotes.
	if err := json.Unmarshal(data[len(data)-len(body)-len(deltaTail)-1:len(data)-len(deltaTail)+1], &text); err != nil {
		return "", false
	}
	return text, true
}
