package fakellm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
)

const key = "sk-ant-fake-0123456789abcdef"

// fast retries without sleeping.
var fast = llm.RetryPolicy{Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}

func provider(t *testing.T, srv *fakellm.Server, kind string) llm.Provider {
	t.Helper()
	base := srv.URL()
	if kind == llm.ProviderOpenAI {
		base = srv.OpenAIBaseURL()
	}
	p, err := llm.New(llm.Config{Provider: kind, BaseURL: base, APIKey: key, Model: "claude-sonnet-4-5", Retry: fast})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func userSays(text string) llm.Request {
	return llm.Request{
		System:   "sys",
		Tools:    []llm.ToolDef{{Name: "read_file", Description: "d"}},
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(text)}}},
	}
}

// answer is an assembled model answer.
type answer struct {
	text, thinking, signature string
	tools                     []string // "name input" or "name input !invalid"
	stop                      llm.StopReason
	usage                     llm.Usage
	retries                   []string
	err                       error
}

func run(t *testing.T, p llm.Provider, req llm.Request) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ch, err := p.Stream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	for ev := range ch {
		switch ev.Type {
		case llm.EventTextDelta:
			a.text += ev.Text
		case llm.EventThinkingDelta:
			a.thinking += ev.Text
			a.signature += ev.Signature
		case llm.EventToolDone:
			s := ev.ToolName + " " + string(ev.Input)
			if errors.Is(ev.Err, llm.ErrInvalidToolInput) {
				s += " !invalid"
			}
			a.tools = append(a.tools, s)
		case llm.EventStop:
			a.stop = ev.Stop
		case llm.EventUsage:
			a.usage = ev.Usage
		case llm.EventRetry:
			a.retries = append(a.retries, ev.Retry.String())
		case llm.EventError:
			a.err = ev.Err
		}
	}
	return a
}

func TestConversationBothFormats(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{llm.ProviderAnthropic, llm.ProviderOpenAI} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{APIKey: key, Turns: []fakellm.Turn{
				{Thinking: "I need the file.", Text: "Let me read it. ", ToolCalls: []fakellm.ToolCall{
					{ID: "t1", Name: "read_file", Input: json.RawMessage(`{"path": "go.mod"}`)},
					{Name: "run_bash", RawInput: `{"command": `},
				}, Usage: &fakellm.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 50}},
				{When: &fakellm.When{ToolResultContains: "module pilot"}, Text: "It is module pilot — done."},
			}})
			defer srv.Close()
			p := provider(t, srv, kind)

			a := run(t, p, userSays("What module is this?"))
			wantTools := []string{`read_file {"path":"go.mod"}`, `run_bash {"command":  !invalid`}
			if a.err != nil || a.text != "Let me read it. " || a.stop != llm.StopToolUse || fmt.Sprint(a.tools) != fmt.Sprint(wantTools) ||
				a.usage != (llm.Usage{InputTokens: 100, OutputTokens: 20, CacheReadTokens: 50}) {
				t.Fatalf("first answer: %+v", a)
			}
			if kind == llm.ProviderAnthropic && (a.thinking != "I need the file." || a.signature != "fakellm-signature") {
				t.Errorf("thinking %q signature %q", a.thinking, a.signature)
			}

			req := userSays("What module is this?")
			req.Messages = append(req.Messages,
				llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "t1", Name: "read_file", Input: json.RawMessage(`{"path":"go.mod"}`)}}},
				llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockToolResult, ToolUseID: "t1", Content: "module pilot\n"}}})
			if a := run(t, p, req); a.text != "It is module pilot — done." || a.stop != llm.StopEndTurn {
				t.Fatalf("second answer: %+v", a)
			}

			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			first, second := reqs[0], reqs[1]
			if first.LastUserText != "What module is this?" || first.System != "sys" || fmt.Sprint(first.Tools) != "[read_file]" || first.Turn != 0 || first.Model != "claude-sonnet-4-5" {
				t.Errorf("first request: %+v", first)
			}
			if len(second.ToolResults) != 1 || second.ToolResults[0].ToolUseID != "t1" || second.Turn != 1 {
				t.Errorf("second request: %+v", second)
			}
			for _, h := range []string{first.Header.Get("X-Api-Key"), first.Header.Get("Authorization")} {
				if strings.Contains(h, key) {
					t.Errorf("key recorded: %q", h)
				}
			}
		})
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		turns []fakellm.Turn
		check func(t *testing.T, a answer, reqs []fakellm.Request)
	}{
		{"429 then answer", []fakellm.Turn{{Fault: &fakellm.Fault{Status: 429, RetryAfter: "3"}}, {Text: "ok"}},
			func(t *testing.T, a answer, reqs []fakellm.Request) {
				if a.text != "ok" || fmt.Sprint(a.retries) != "[retrying in 3 s (rate limited)]" || len(reqs) != 2 {
					t.Errorf("%+v", a)
				}
			}},
		{"401 not retried", []fakellm.Turn{{Fault: &fakellm.Fault{Status: 401}}, {Text: "never"}},
			func(t *testing.T, a answer, reqs []fakellm.Request) {
				if !errors.Is(a.err, llm.ErrAuth) || len(reqs) != 1 {
					t.Errorf("%+v", a)
				}
			}},
		{"cut mid-stream keeps the partial text", []fakellm.Turn{{Text: "one two three four five", Fault: &fakellm.Fault{CutAfterEvents: 5}}},
			func(t *testing.T, a answer, _ []fakellm.Request) {
				if !errors.Is(a.err, llm.ErrStreamCut) || a.text == "" || strings.Contains(a.text, "five") {
					t.Errorf("%+v", a)
				}
			}},
		{"error event mid-stream", []fakellm.Turn{{Text: "one two three four five", Fault: &fakellm.Fault{ErrorAfterEvents: 5}}},
			func(t *testing.T, a answer, _ []fakellm.Request) {
				var e *llm.Error
				if !errors.As(a.err, &e) || e.Kind != llm.KindOverloaded || !e.Partial || a.text == "" {
					t.Errorf("%+v", a)
				}
			}},
		{"delay", []fakellm.Turn{{Text: "a b c", Fault: &fakellm.Fault{DelayMs: 5}}},
			func(t *testing.T, a answer, _ []fakellm.Request) {
				if a.text != "a b c" {
					t.Errorf("%+v", a)
				}
			}},
		{"script exhausted", nil,
			func(t *testing.T, a answer, _ []fakellm.Request) {
				if !errors.Is(a.err, llm.ErrBadRequest) || !strings.Contains(a.err.Error(), "no scripted turn left") {
					t.Errorf("%v", a.err)
				}
			}},
		{"stream tokens", []fakellm.Turn{{StreamTokens: 1000}},
			func(t *testing.T, a answer, _ []fakellm.Request) {
				if n := len(strings.Fields(a.text)); n != 1000 {
					t.Errorf("%d words", n)
				}
			}},
		{"match predicate and repeat", []fakellm.Turn{
			{When: &fakellm.When{LastUserContains: "nope"}, Text: "wrong"},
			{Match: func(r fakellm.Request) bool { return strings.HasPrefix(r.LastUserText, "hel") }, Repeat: true, Text: "right"}},
			func(t *testing.T, a answer, reqs []fakellm.Request) {
				if a.text != "right" || reqs[0].Turn != 1 {
					t.Errorf("%+v", a)
				}
			}},
	}
	for _, tt := range tests {
		for _, kind := range []string{llm.ProviderAnthropic, llm.ProviderOpenAI} {
			t.Run(tt.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				srv := fakellm.New(fakellm.Script{Turns: tt.turns})
				defer srv.Close()
				a := run(t, provider(t, srv, kind), userSays("hello"))
				tt.check(t, a, srv.Requests())
			})
		}
	}
}

// TestStallFault: a stall after a few words keeps the connection open and
// silent until the client's idle timeout gives up.
func TestStallFault(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{llm.ProviderAnthropic, llm.ProviderOpenAI} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "one two three four five", Fault: &fakellm.Fault{StallAfterEvents: 5}}}})
			defer srv.Close()
			base := srv.URL()
			if kind == llm.ProviderOpenAI {
				base = srv.OpenAIBaseURL()
			}
			p, err := llm.New(llm.Config{Provider: kind, BaseURL: base, APIKey: key, Model: "claude-sonnet-4-5", Retry: fast, StreamIdleTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			a := run(t, p, userSays("hello"))
			var e *llm.Error
			if !errors.As(a.err, &e) || e.Kind != llm.KindStalled || !e.Partial || a.text == "" || strings.Contains(a.text, "five") {
				t.Errorf("%+v", a)
			}
		})
	}
}

func TestFixtureReplayIsByteForByte(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("../../llm/testdata/anthropic_tool_use.sse")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "stream.sse"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptPath, []byte(`{"turns":[{"fixture":"stream.sse"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := fakellm.LoadScript(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.New(script)
	defer srv.Close()
	resp, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(`{"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, want) {
		t.Errorf("replayed %d bytes, want the %d of the fixture", len(got), len(want))
	}
}

func TestHTTPControlEndpoints(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	resp, err := http.Post(srv.URL()+"/_fakellm/script", "application/json", strings.NewReader(`{"models":["m1","m2"],"turns":[{"text":"hi","repeat":true}]}`))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("set script: %v %v", resp, err)
	}
	resp.Body.Close()
	if a := run(t, provider(t, srv, llm.ProviderOpenAI), userSays("x")); a.text != "hi" {
		t.Errorf("%+v", a)
	}
	models, err := llm.ListModels(context.Background(), llm.Config{Provider: llm.ProviderAnthropic, BaseURL: srv.URL(), APIKey: key})
	if err != nil || len(models) != 2 || models[0].ID != "m1" {
		t.Errorf("models %v %v", models, err)
	}
	resp, err = http.Get(srv.URL() + "/_fakellm/requests")
	if err != nil {
		t.Fatal(err)
	}
	var reqs []fakellm.Request
	if err := json.NewDecoder(resp.Body).Decode(&reqs); err != nil || len(reqs) != 2 || reqs[0].LastUserText != "x" {
		t.Errorf("requests %+v %v", reqs, err)
	}
	resp.Body.Close()
	bad, err := http.Post(srv.URL()+"/_fakellm/script", "application/json", strings.NewReader(`{"turns":[{"txt":"typo"}]}`))
	if err != nil || bad.StatusCode != http.StatusBadRequest {
		t.Errorf("a typo in a script is accepted: %v", bad.Status)
	}
	bad.Body.Close()
}

func TestAPIKeyRequired(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{APIKey: "other-key-123456", Turns: []fakellm.Turn{{Text: "never"}}})
	defer srv.Close()
	for _, kind := range []string{llm.ProviderAnthropic, llm.ProviderOpenAI} {
		if a := run(t, provider(t, srv, kind), userSays("x")); !errors.Is(a.err, llm.ErrAuth) {
			t.Errorf("%s: %v", kind, a.err)
		}
	}
}
