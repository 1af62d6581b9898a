package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"slices"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/mcp"
	"pilot/backend/mcpauth"
	"pilot/backend/wire"
)

// fakeMCP is a project's MCP servers as the agent sees them.
type fakeMCP struct {
	mu    sync.Mutex
	calls []string
	down  bool // the server crashed: no tools
}

func (f *fakeMCP) Tools() []mcp.ToolInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return nil
	}
	return []mcp.ToolInfo{
		{Name: "mcp__t__echo", Server: "t", Tool: "echo", Description: "Echo.", Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		{Name: "mcp__t__shot", Server: "t", Tool: "shot", Description: "A picture.", Schema: json.RawMessage(`{"type":"object"}`)},
		{Name: "mcp__t__fail", Server: "t", Tool: "fail", Description: "Fails.", Schema: json.RawMessage(`{"type":"object"}`)},
		{Name: "mcp__t__gone", Server: "t", Tool: "gone", Description: "Its server crashed.", Schema: json.RawMessage(`{"type":"object"}`)},
	}
}

func (f *fakeMCP) Call(_ context.Context, name string, args json.RawMessage) (mcp.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name+" "+string(args))
	f.mu.Unlock()
	switch name {
	case "mcp__t__echo":
		var in struct{ Text string }
		_ = json.Unmarshal(args, &in)
		return mcp.Result{Text: "echo: " + in.Text}, nil
	case "mcp__t__shot":
		return mcp.Result{Text: "a dot", Images: []mcp.Image{{MediaType: "image/png", Data: onePixelPNG()}}}, nil
	case "mcp__t__fail":
		return mcp.Result{Text: "no such record", IsError: true}, nil
	}
	f.mu.Lock()
	f.down = true
	f.mu.Unlock()
	return mcp.Result{}, errors.New("the server exited (exit status 3)")
}

func (f *fakeMCP) made() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func TestMCPToolsAskedAndAnswered(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			srv := &fakeMCP{}
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{
					toolCall("a", "mcp__t__echo", `{"text": "hi"}`),
					toolCall("b", "mcp__t__shot", `{}`),
					toolCall("c", "mcp__t__fail", `{}`),
					toolCall("d", "mcp__t__gone", `{}`),
				}},
				{Text: "Done."},
			}}, setup{mcp: srv})
			var asked []wire.Approval
			var mu sync.Mutex
			h.approveWith(func(a wire.Approval) {
				mu.Lock()
				asked = append(asked, a)
				mu.Unlock()
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true, AlwaysAllow: a.McpTool == "echo"})
			})
			if r := h.turn("use the tools"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			if offered := h.srv.Requests()[0].Tools; !slices.Contains(offered, "mcp__t__echo") || !slices.Contains(offered, "run_bash") {
				t.Fatalf("offered %v", offered)
			}
			if len(asked) != 4 || asked[0].Server != "t" || asked[0].McpTool != "echo" || asked[0].Arguments != `{"text":"hi"}` || asked[0].Kind != wire.ApprovalMCP || len(asked[0].AlwaysRules) != 1 || asked[0].AlwaysRules[0] != `allow mcp__t__echo "*"` {
				t.Fatalf("asked %+v", asked)
			}
			res := h.results(1)
			if len(res) != 4 || res[0].Content != "echo: hi" || res[0].IsError {
				t.Fatalf("results %+v", res)
			}
			isErr := func(r fakellm.ToolResult) bool { return r.IsError || strings.HasPrefix(r.Content, "Error: ") } // OpenAI has no is_error
			if !isErr(res[2]) || !strings.Contains(res[2].Content, "no such record") {
				t.Errorf("isError result %+v", res[2])
			}
			if !isErr(res[3]) || !strings.Contains(res[3].Content, "exited") {
				t.Errorf("crashed server %+v", res[3])
			}
			ms := h.messages()
			var images []llm.ContentBlock
			for _, b := range ms[2].Content {
				images = append(images, b.Images...)
			}
			if len(images) != 1 || images[0].MediaType != "image/png" || images[0].Hash == "" {
				t.Errorf("stored images %+v", images)
			}
			// The crashed server's tools are gone from the next call, with a notice.
			if offered := h.srv.Requests()[1].Tools; slices.Contains(offered, "mcp__t__echo") {
				t.Errorf("a crashed server's tools were still offered: %v", offered)
			}
			if n := h.rec.notices("mcp"); len(n) != 1 || !strings.Contains(n[0], `"t" is not available`) {
				t.Errorf("notices %v", n)
			}
			rules, _ := h.st.Rules.List(t.Context(), h.sess.ProjectID)
			if len(rules) != 1 || rules[0].Tool != "mcp__t__echo" || rules[0].Pattern != "*" {
				t.Errorf("rules %+v", rules)
			}
			calls, _ := h.st.ToolCalls.List(t.Context(), h.sess.ID)
			if calls[0].Status != wire.ToolDone || calls[2].Status != wire.ToolError {
				t.Errorf("calls %+v", calls)
			}
		})
	}
}

func TestMCPModes(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"none", "all", "edits"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			srv := &fakeMCP{}
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("a", "mcp__t__echo", `{"text":"x"}`)}},
				{Text: "Done."},
			}}, setup{mode: mode, mcp: srv})
			asked := 0
			h.approveWith(func(a wire.Approval) {
				asked++
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: false, Feedback: "not now"})
			})
			h.turn("go")
			res := h.results(1)
			switch mode {
			case "none":
				if asked != 0 || len(srv.made()) != 0 || !res[0].IsError {
					t.Fatalf("none: asked %d, made %v, %+v", asked, srv.made(), res)
				}
			case "all":
				if asked != 0 || len(srv.made()) != 1 || res[0].Content != "echo: x" {
					t.Fatalf("all: asked %d, made %v, %+v", asked, srv.made(), res)
				}
			case "edits":
				if asked != 1 || len(srv.made()) != 0 || !strings.Contains(res[0].Content, "not now") {
					t.Fatalf("edits: asked %d, made %v, %+v", asked, srv.made(), res)
				}
			}
		})
	}
}

// onePixelPNG is a real PNG image, as an MCP server would return.
func onePixelPNG() []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err)
	}
	return b.Bytes()
}

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
