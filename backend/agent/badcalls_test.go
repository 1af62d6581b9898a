package agent

import (
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestLoopGuardCountsMalformedCalls: the same malformed call repeated is
// stopped by the loop guard like any other repeated call, not at the
// 50-call limit.
func TestLoopGuardCountsMalformedCalls(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{Repeat: true, ToolCalls: []fakellm.ToolCall{{Name: "read_file", RawInput: `{"path": `}}},
	}}, setup{files: map[string]string{"f.txt": "x\n"}})
	if r := h.turn("Read"); r != ReasonLoopGuard {
		t.Fatalf("reason %s after %d model calls", r, len(h.srv.Requests()))
	}
	if n := len(h.srv.Requests()); n != 3 {
		t.Errorf("%d model calls, want 3", n)
	}
	checkPairs(t, h.messages())
}

// TestHostileToolCalls: a call with no tool name, or with input nested
// deeper than SQLite's JSON can hold, gets a sentence as its result, and
// the session goes on (the next turn works).
func TestHostileToolCalls(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000)
	deepArray := `{"path":` + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + "}"
	for _, tc := range []struct {
		name string
		call fakellm.ToolCall
		says string
	}{
		{"empty name", fakellm.ToolCall{ID: "c1", Name: "", Input: []byte(`{"path":"f.txt"}`)}, "named no tool"},
		{"deeply nested object", fakellm.ToolCall{ID: "c1", Name: "read_file", RawInput: deep}, "nested"},
		{"deeply nested array", fakellm.ToolCall{ID: "c1", Name: "read_file", RawInput: deepArray}, "nested"},
	} {
		for _, format := range formats {
			if tc.call.Name == "" && format == "openai" {
				continue // the OpenAI-compatible client drops a call without a name
			}
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
					{ToolCalls: []fakellm.ToolCall{tc.call}},
					{Text: "I will do better.", When: &fakellm.When{HasToolResult: true}},
					{Text: "Second turn works."},
				}}, setup{files: map[string]string{"f.txt": "x\n"}})
				if r := h.turn("Go"); r != ReasonEndTurn {
					t.Fatalf("reason %s; errors %+v", r, h.rec.events(wire.AgentError))
				}
				res := h.results(1)
				if len(res) != 1 || !wireError(format, res[0]) || !strings.Contains(res[0].Content, tc.says) {
					t.Fatalf("results %+v", res)
				}
				if r := h.turn("Again"); r != ReasonEndTurn {
					t.Fatalf("second turn: reason %s; errors %+v", r, h.rec.events(wire.AgentError))
				}
				checkPairs(t, h.messages())
			})
		}
	}
}
