package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
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
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
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
	for _, p := range h.rec.events(wire.AgentMessage) {
		for _, b := range p.(wire.MessagePayload).Message.Blocks {
			if b.Type == wire.BlockType(llm.BlockRedactedThinking) {
				t.Errorf("the window was sent a redacted block: %+v", b)
			}
		}
	}
}

// TestDeepSeekReasoningGoesBack: the reasoning_content DeepSeek's thinking
// mode streams before a tool call is stored with its field and host, and
// sent back on the assistant message of the next call (without it DeepSeek
// answers 400 "The reasoning_content in the thinking mode must be passed
// back to the API"). The answer is DeepSeek's recording (see
// llm/testdata/README.md).
func TestDeepSeekReasoningGoesBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderOpenAI, fakellm.Script{Turns: []fakellm.Turn{
		{Fixture: "../llm/testdata/openai_deepseek_thinking_tool.sse"},
		{Text: "Sunny.", When: &fakellm.When{HasToolResult: true}},
	}}, setup{})
	if r := h.turn("Weather in San Francisco?"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	ms := h.messages()
	stored := ms[1].Content
	if len(stored) != 2 || stored[0].Type != llm.BlockThinking || stored[0].Thinking != "The user asks" ||
		stored[0].Field != llm.FieldReasoningContent || stored[0].Origin == "" || stored[1].Type != llm.BlockToolUse {
		t.Fatalf("stored answer %+v", stored)
	}
	reqs := h.srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model calls", len(reqs))
	}
	var assistant map[string]any
	for _, m := range reqs[1].Body["messages"].([]any) {
		if m := m.(map[string]any); m["role"] == "assistant" {
			assistant = m
		}
	}
	if assistant["reasoning_content"] != "The user asks" || assistant["tool_calls"] == nil {
		t.Errorf("assistant message sent back: %v", assistant)
	}
	if _, ok := assistant["reasoning"]; ok {
		t.Errorf("reasoning sent in a field it did not come in: %v", assistant)
	}
}

// logged is a model client that logs the requests it is called with.
type logged struct {
	llm.Provider
	log *requestLog
}

type requestLog struct {
	mu        sync.Mutex
	streams   []llm.Request // the turn's calls
	completes []llm.Request // titles and summaries
}

func (r logged) Stream(ctx context.Context, req llm.Request) (<-chan llm.Event, error) {
	r.log.mu.Lock()
	r.log.streams = append(r.log.streams, req)
	r.log.mu.Unlock()
	return r.Provider.Stream(ctx, req)
}

func (r logged) Complete(ctx context.Context, req llm.Request) (string, llm.Usage, error) {
	r.log.mu.Lock()
	r.log.completes = append(r.log.completes, req)
	r.log.mu.Unlock()
	return r.Provider.Complete(ctx, req)
}

// TestThinkingBudget: the calls of a turn think with the session's budget;
// the title and the summary do not. On the Anthropic wire the budget goes
// with the interleaved-thinking beta, without temperature or tool_choice,
// and the answer's thinking block goes back with its signature alongside
// the tool results; an OpenAI-compatible server is sent nothing new.
func TestThinkingBudget(t *testing.T) {
	t.Parallel()
	const budget = 4096
	notSummary := func(r fakellm.Request) bool { return !isSummary(r) }
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Thinking: "go.mod says.", ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"go.mod"}`)}, Match: notSummary},
				{Thinking: "It is 1.26.", Text: "Go 1.26.", Match: notSummary},
				{Text: "None.", Match: notSummary},
				{Text: "SUMMARY", Match: isSummary},
			}}, setup{files: map[string]string{"go.mod": "module x\n\ngo 1.26\n"}, opt: Options{Titles: true}})
			log := &requestLog{}
			h.m.provider = func(_ context.Context, s store.Session) (Model, error) {
				p, err := h.client(s)
				return Model{Provider: logged{p, log}, ThinkingBudget: budget}, err
			}
			if r := h.turn("Which Go version?"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			for deadline := time.Now().Add(10 * time.Second); h.srv.TitleRequests() == 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("no title was asked for")
				}
			}
			if r := h.turn("Any dependencies?"); r != ReasonEndTurn {
				t.Fatalf("second turn: %s", r)
			}
			if err := h.m.CompactNow(context.Background(), h.sess.ID); err != nil {
				t.Fatal(err)
			}

			log.mu.Lock()
			streams, completes := log.streams, log.completes
			log.mu.Unlock()
			if len(streams) != 3 || len(completes) != 2 {
				t.Fatalf("%d turn calls and %d other calls, want 3 and 2 (title, summary)", len(streams), len(completes))
			}
			for i, r := range streams {
				if r.ThinkingBudget != budget || r.Temperature != nil {
					t.Errorf("turn call %d: budget %d, temperature %v", i, r.ThinkingBudget, r.Temperature)
				}
			}
			for _, r := range completes {
				if r.ThinkingBudget != 0 {
					t.Errorf("%q... thinks with %d tokens", textOf(r.Messages[0])[:20], r.ThinkingBudget)
				}
			}

			reqs := h.srv.Requests()
			if len(reqs) != 4 || !isSummary(reqs[3]) {
				t.Fatalf("%d requests on the wire, want 3 turn calls and a summary", len(reqs))
			}
			for i, r := range reqs {
				thinks := format == llm.ProviderAnthropic && !isSummary(r)
				beta, thinking := r.Header.Get("anthropic-beta"), r.Body["thinking"]
				if want := `map[budget_tokens:4096 type:enabled]`; thinks && (fmt.Sprint(thinking) != want || beta != llm.InterleavedThinkingBeta) {
					t.Errorf("request %d: thinking %v, anthropic-beta %q", i, thinking, beta)
				}
				if !thinks && (thinking != nil || beta != "") {
					t.Errorf("request %d does not think, but sent thinking %v, anthropic-beta %q", i, thinking, beta)
				}
				for _, key := range []string{"temperature", "tool_choice", "reasoning_effort"} {
					if _, ok := r.Body[key]; ok {
						t.Errorf("request %d sent %s", i, key)
					}
				}
			}
			if format == llm.ProviderAnthropic {
				back := reqs[1].Body["messages"].([]any)[1].(map[string]any)["content"].([]any)[0]
				if want := `map[signature:fakellm-signature thinking:go.mod says. type:thinking]`; fmt.Sprint(back) != want {
					t.Errorf("with the tool results went back %v, want %s", back, want)
				}
			}
		})
	}
}
