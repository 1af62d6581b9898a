package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/mcp"
	"pilot/backend/mcpauth"
	"pilot/backend/wire"
)

// lockedMCP is a server whose one tool needs a sign-in until signIn.
type lockedMCP struct {
	mu       sync.Mutex
	signedIn bool
	calls    []string
}

func (f *lockedMCP) Tools() []mcp.ToolInfo {
	return []mcp.ToolInfo{{Name: "mcp__hosted__list", Server: "hosted", Tool: "list", Description: "Lists.", Schema: json.RawMessage(`{"type":"object"}`)}}
}

func (f *lockedMCP) Call(_ context.Context, name string, args json.RawMessage) (mcp.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, name+" "+string(args))
	if !f.signedIn {
		return mcp.Result{}, &mcpauth.SignInError{Server: "hosted", Why: "no longer accepts its sign-in (expired or revoked)"} // as mcp.Hub.Call says it
	}
	return mcp.Result{Text: "three issues"}, nil
}

// TestRetryCallAfterSignIn: a call the server refuses for want of a
// sign-in says so on its card by the server's name (from the typed error,
// not its text); after the sign-in, RetryCall makes the same call (same
// tool, same input) as a turn of its own, through the gate again, and
// the model reads its result and goes on.
func TestRetryCallAfterSignIn(t *testing.T) {
	t.Parallel()
	srv := &lockedMCP{}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("a", "mcp__hosted__list", `{"state":"open"}`)}, When: &fakellm.When{LastUserContains: "issues"}},
		{Text: "Noted.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}}, setup{mcp: srv})
	asked := 0
	var mu sync.Mutex
	h.approveWith(func(a wire.Approval) {
		mu.Lock()
		asked++
		mu.Unlock()
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
	})
	if r := h.turn("list the issues"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	var failed wire.ToolCall
	for _, p := range h.rec.events(wire.AgentTool) {
		if c := p.(wire.ToolPayload).Call; c.ID == "a" && c.Status == wire.ToolError {
			failed = c
		}
	}
	if failed.NeedsSignIn != "hosted" {
		t.Fatalf("the failed card: %+v", failed)
	}
	if res := h.results(1); len(res) != 1 || !strings.Contains(res[0].Content, "sign in") {
		t.Fatalf("the model was told %+v", res)
	}

	srv.mu.Lock()
	srv.signedIn = true
	srv.mu.Unlock()
	if err := h.m.RetryCall(context.Background(), h.sess.ID, "a"); err != nil {
		t.Fatal(err)
	}
	if r := h.wait(); r != ReasonEndTurn {
		t.Fatalf("retry: reason %s", r)
	}
	if asked != 2 {
		t.Errorf("the gate asked %d times, want 2 (the retry is judged again)", asked)
	}
	if len(srv.calls) != 2 || srv.calls[0] != srv.calls[1] {
		t.Errorf("calls %v, want the same call twice", srv.calls)
	}
	if res := h.results(2); len(res) != 1 || res[0].Content != "three issues" {
		t.Fatalf("the retried result sent to the model: %+v", res)
	}
	ms := h.messages()
	if n := len(ms); n < 4 || !strings.Contains(ms[n-4].Content[0].Text, "(Retry)") || ms[n-3].Content[0].Name != "mcp__hosted__list" || string(ms[n-3].Content[0].Input) != `{"state":"open"}` {
		t.Errorf("the retry's messages: %+v", ms[max(0, len(ms)-4):])
	}
	if err := h.m.RetryCall(context.Background(), h.sess.ID, "nope"); err == nil {
		t.Error("a call not in the session was retried")
	}
}
