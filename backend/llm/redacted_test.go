package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// redactedData is the data of the redacted_thinking block of
// anthropic_redacted_thinking.sse.
const redactedData = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pxmfR3rhc96gzt+8=="

// sessionServer answers request i with the fixture files[i] and keeps every
// request body as it arrived.
func sessionServer(t *testing.T, files ...string) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		mu.Lock()
		i := len(bodies)
		bodies = append(bodies, string(raw))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(readFixture(t, files[min(i, len(files)-1)]))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), bodies...) }
}

// assemble builds an answer's blocks from its events, as the agent loop
// does.
func assemble(t *testing.T, ch <-chan Event) []ContentBlock {
	t.Helper()
	var out []ContentBlock
	lastIs := func(typ BlockType) bool { return len(out) > 0 && out[len(out)-1].Type == typ }
	for ev := range ch {
		switch ev.Type {
		case EventTextDelta:
			if !lastIs(BlockText) {
				out = append(out, ContentBlock{Type: BlockText})
			}
			out[len(out)-1].Text += ev.Text
		case EventThinkingDelta:
			if !lastIs(BlockThinking) {
				out = append(out, ContentBlock{Type: BlockThinking})
			}
			out[len(out)-1].Thinking += ev.Text
			if ev.Signature != "" {
				out[len(out)-1].Signature = ev.Signature
			}
		case EventRedactedThinking:
			out = append(out, ContentBlock{Type: BlockRedactedThinking, Data: ev.Text})
		case EventToolStart:
			out = append(out, ContentBlock{Type: BlockToolUse, ID: ev.ToolID, Name: ev.ToolName})
		case EventToolDone:
			out[len(out)-1].Input = ev.Input
		case EventError:
			t.Fatalf("stream failed: %v", ev.Err)
		}
	}
	return out
}

// TestRedactedThinkingRoundTrip is a tool loop with extended thinking: the
// answer's thinking, redacted_thinking and tool_use blocks go back in the
// next request exactly as they came, in their order.
func TestRedactedThinkingRoundTrip(t *testing.T) {
	t.Parallel()
	srv, bodies := sessionServer(t, "anthropic_redacted_thinking.sse", "anthropic_comments_crlf.sse")
	p := newProvider(t, ProviderAnthropic, srv.URL, RetryPolicy{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := Request{ThinkingBudget: 2048, Messages: []Message{{Role: RoleUser, Content: []ContentBlock{TextBlock("Which Go version?")}}}}
	ch, err := p.Stream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	answer := Message{Role: RoleAssistant, Content: assemble(t, ch)}
	req.Messages = append(req.Messages, answer, Message{Role: RoleUser, Content: []ContentBlock{
		{Type: BlockToolResult, ToolUseID: "toolu_01Redact", Content: "go 1.26"}}})
	diffLines(t, drain(t, p, req), []string{"text Hi", "usage in=5 out=2 cr=0 cw=0", "stop end_turn"})

	got := bodies()
	if len(got) != 2 {
		t.Fatalf("%d requests, want 2", len(got))
	}
	want := `{"role":"assistant","content":[` +
		`{"type":"thinking","thinking":"I should read go.mod first.","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},` +
		`{"type":"redacted_thinking","data":"` + redactedData + `"},` +
		`{"type":"tool_use","id":"toolu_01Redact","name":"read_file","input":{"path":"go.mod"}}]}`
	if !strings.Contains(got[1], want) {
		t.Errorf("second request:\n%s\nwant it to hold\n%s", got[1], want)
	}
}

// TestRedactedThinkingEncoding: Anthropic gets redacted_thinking blocks in
// place (never with cache_control, never empty); OpenAI-compatible servers
// never see them.
func TestRedactedThinkingEncoding(t *testing.T) {
	t.Parallel()
	redacted := ContentBlock{Type: BlockRedactedThinking, Data: "cmVkYWN0ZWQ="}
	user := Message{Role: RoleUser, Content: []ContentBlock{TextBlock("hi")}}
	tests := []struct {
		name      string
		assistant []ContentBlock
		anthropic string // the assistant message as sent
		openai    string
	}{
		{"between thinking and text",
			[]ContentBlock{{Type: BlockThinking, Thinking: "a", Signature: "s1"}, redacted, TextBlock("done")},
			`{"role":"assistant","content":[{"type":"thinking","thinking":"a","signature":"s1"},{"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},{"type":"text","text":"done","cache_control":{"type":"ephemeral"}}]}`,
			`{"role":"assistant","content":"done"}`},
		{"two in a row before a tool call",
			[]ContentBlock{redacted, {Type: BlockRedactedThinking, Data: "c2Vjb25k"}, {Type: BlockToolUse, ID: "t1", Name: "glob", Input: json.RawMessage(`{}`)}},
			`{"role":"assistant","content":[{"type":"redacted_thinking","data":"cmVkYWN0ZWQ="},{"type":"redacted_thinking","data":"c2Vjb25k"},{"type":"tool_use","id":"t1","name":"glob","input":{},"cache_control":{"type":"ephemeral"}}]}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"glob","arguments":"{}"}}]}`},
		{"last block of the request",
			[]ContentBlock{TextBlock("so"), redacted},
			`{"role":"assistant","content":[{"type":"text","text":"so"},{"type":"redacted_thinking","data":"cmVkYWN0ZWQ="}]}`,
			`{"role":"assistant","content":"so"}`},
		{"without data it is dropped",
			[]ContentBlock{{Type: BlockRedactedThinking}, TextBlock("ok")},
			`{"role":"assistant","content":[{"type":"text","text":"ok","cache_control":{"type":"ephemeral"}}]}`,
			`{"role":"assistant","content":"ok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := Request{Model: "m", Messages: []Message{user, {Role: RoleAssistant, Content: tt.assistant}}}
			a, err := NewAnthropic(Config{APIKey: testKey}).body(req, true)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(a), tt.anthropic) {
				t.Errorf("anthropic body:\n%s\nwant it to hold\n%s", a, tt.anthropic)
			}
			o, err := NewOpenAI(Config{}).body(req)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(o), tt.openai) || strings.Contains(string(o), "redacted") || strings.Contains(string(o), "cmVkYWN0ZWQ") {
				t.Errorf("openai body:\n%s\nwant it to hold\n%s and no redacted thinking", o, tt.openai)
			}
		})
	}
}
