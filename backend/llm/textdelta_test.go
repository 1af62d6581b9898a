package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestAnthropicTextDelta(t *testing.T) {
	t.Parallel()
	const head = `{"type":"content_block_delta","index":`
	for _, c := range []struct {
		name, data, text string
		ok               bool
	}{
		{"plain", head + `0,"delta":{"type":"text_delta","text":"Okay"}}`, "Okay", true},
		{"empty text", head + `3,"delta":{"type":"text_delta","text":""}}`, "", true},
		{"escapes", head + `12,"delta":{"type":"text_delta","text":"a\n\"b\"\\ \u00e9 \ud83d\ude00"}}`, "a\n\"b\"\\ é 😀", true},
		{"utf-8", head + `1,"delta":{"type":"text_delta","text":"naïve 日本"}}`, "naïve 日本", true},
		{"escaped quote at the end", head + `0,"delta":{"type":"text_delta","text":"say \""}}`, `say "`, true},
		{"backslash at the end", head + `0,"delta":{"type":"text_delta","text":"C:\\"}}`, `C:\`, true},
		{"thinking delta", head + `0,"delta":{"type":"thinking_delta","thinking":"hm"}}`, "", false},
		{"spaces", `{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}`, "", false},
		{"other order", `{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}`, "", false},
		{"leading zero", head + `01,"delta":{"type":"text_delta","text":"x"}}`, "", false},
		{"no index", head + `,"delta":{"type":"text_delta","text":"x"}}`, "", false},
		{"a field after text", head + `0,"delta":{"type":"text_delta","text":"x","extra":"y"}}`, "", false},
		{"string ends early", head + `0,"delta":{"type":"text_delta","text":"x"},"y":"z"}}`, "", false},
		{"control byte", head + "0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\tb\"}}", "", false},
		{"invalid utf-8", head + "0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\xffb\"}}", "", false},
		{"bad escape", head + `0,"delta":{"type":"text_delta","text":"a\qb"}}`, "", false},
		{"trailing bytes", head + `0,"delta":{"type":"text_delta","text":"x"}} `, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			text, ok := anthropicTextDelta([]byte(c.data))
			if ok != c.ok || text != c.text {
				t.Fatalf("anthropicTextDelta(%s) = %q, %v; want %q, %v", c.data, text, ok, c.text, c.ok)
			}
			if ok {
				checkLikeFullDecode(t, []byte(c.data), text)
			}
		})
	}
}

// TestAnthropicTextDeltaFixture: every text delta of the recorded stream
// takes the fast path.
func TestAnthropicTextDeltaFixture(t *testing.T) {
	t.Parallel()
	sc := bufio.NewScanner(bytes.NewReader(readFixture(t, "anthropic_tool_use.sse")))
	n := 0
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || !strings.Contains(data, `"text_delta"`) {
			continue
		}
		n++
		if _, ok := anthropicTextDelta([]byte(data)); !ok {
			t.Errorf("the fast path refused a recorded text delta: %s", data)
		}
	}
	if n == 0 {
		t.Fatal("no text delta in the fixture")
	}
}

// checkLikeFullDecode fails unless decoding data in full gives the text
// delta text.
func checkLikeFullDecode(t *testing.T, data []byte, text string) {
	t.Helper()
	var ev anthropicEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		t.Fatalf("the fast path took %q, which is not JSON: %v", data, err)
	}
	if ev.Type != "content_block_delta" || ev.Delta == nil || ev.Delta.Type != "text_delta" || ev.Delta.Text != text {
		t.Fatalf("the fast path read %q from %q; the full decoder reads %+v", text, data, ev.Delta)
	}
}

// FuzzAnthropicTextDelta: whenever the fast path takes an event, the full
// decoder reads the same text delta from it.
func FuzzAnthropicTextDelta(f *testing.F) {
	for _, s := range []string{"Okay", `a\n\"b\"`, `\u00e9\ud83d\ude00`, "naïve", `\\`, `x\"`, "\xff", `\ud800`} {
		f.Add([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + s + `"}}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if text, ok := anthropicTextDelta(data); ok {
			checkLikeFullDecode(t, data, text)
		}
	})
}
