package agent

import (
	"strings"
	"testing"

	"pilot/backend/events"
	"pilot/backend/llm"
	"pilot/backend/llm/fakellm"
)

// TestRedactedThinkingGoesBack: the thinking and redacted_thinking blocks
// of an answer with tool calls are stored and sent back with the tool
// results, unchanged and in place; the window is not shown the encrypted
// one.
func TestRedactedThinkingGoesBack(t *testing.T) {
	t.Parallel()
	const data = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pxmfR3rhc96gzt+8=="
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{Fixture: "../llm/testdata/anthropic_redacted_thinking.sse"},
		{Text: "Go 1.26.", When: &fakellm.When{HasToolResult: true}},
	}}, setup{files: map[string]string{"go.mod": "module x\n\ngo 1.26\n"}})
	if r := h.turn("Which Go version?"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(events.AgentError))
	}
	ms := h.messages()
	checkPairs(t, ms)
	stored := ms[1].Content
	if len(stored) != 3 || stored[0].Type != llm.BlockThinking || stored[0].Signature == "" ||
		stored[1].Type != llm.BlockRedactedThinking || stored[1].Data != data || stored[2].Type != llm.BlockToolUse {
		t.Fatalf("stored answer %+v", stored)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls", len(reqs))
	}
	sent := reqs[1].Body["messages"].([]any)[1].(map[string]any)["content"].([]any)
	var got []string
	for _, b := range sent {
		b := b.(map[string]any)
		got = append(got, b["type"].(string))
		if b["type"] == "redacted_thinking" && (b["data"] != data || len(b) != 2) {
			t.Errorf("redacted block sent as %v", b)
		}
	}
	if strings.Join(got, ",") != "thinking,redacted_thinking,tool_use" {
		t.Errorf("blocks sent back: %v", got)
	}
	for _, p := range h.rec.events(events.AgentMessage) {
		for _, b := range p.(events.MessagePayload).Message.Blocks {
			if b.Type == string(llm.BlockRedactedThinking) {
				t.Errorf("the window was sent a redacted block: %+v", b)
			}
		}
	}
}
