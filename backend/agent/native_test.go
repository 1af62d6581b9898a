package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// textAnswer is an Anthropic stream answering "Noted." and ending the turn.
const textAnswer = `event: message_start
data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","usage":{"input_tokens":10,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Noted."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}

event: message_stop
data: {"type":"message_stop"}

`

// nativeServer stands for Anthropic's API: a request offering its web
// search is answered with the recorded search (llm/testdata, vercel/ai's
// recording), any other with textAnswer; it keeps every request's body.
func nativeServer(t *testing.T) (*httptest.Server, func() [][]byte) {
	return recordedServer(t, recording(t, "anthropic_web_search.sse"), `"web_search_20250305"`, textAnswer)
}

// recording is a recorded stream of llm/testdata.
func recording(t *testing.T, fixture string) []byte {
	t.Helper()
	b, err := os.ReadFile("../llm/testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordedServer answers the first request holding offer with recorded,
// any other with plain.
func recordedServer(t *testing.T, recorded []byte, offer, plain string) (*httptest.Server, func() [][]byte) {
	t.Helper()
	var mu sync.Mutex
	var bodies [][]byte
	var replayed bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var read bytes.Buffer
		_, _ = read.ReadFrom(r.Body)
		body := read.Bytes()
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, body)
		w.Header().Set("Content-Type", "text/event-stream")
		if bytes.Contains(body, []byte(offer)) && !replayed {
			replayed = true
			_, _ = w.Write(recorded)
			return
		}
		_, _ = w.Write([]byte(plain))
	}))
	t.Cleanup(srv.Close)
	return srv, func() [][]byte { mu.Lock(); defer mu.Unlock(); return append([][]byte(nil), bodies...) }
}

// offered is the max_uses of the web search server tool a request
// offered (0: not offered), and whether Pilot's own web_search was there.
func offered(t *testing.T, body []byte) (maxUses int, own bool) {
	t.Helper()
	var req struct {
		Tools []struct {
			Type    string `json:"type"`
			Name    string `json:"name"`
			MaxUses int    `json:"max_uses"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, tool := range req.Tools {
		switch {
		case tool.Type == "web_search_20250305":
			maxUses = tool.MaxUses
		case tool.Name == "web_search":
			own = true
		}
	}
	return maxUses, own
}

// TestNativeWebSearch: Anthropic's own search is offered only where the
// user let web_search reach api.anthropic.com without asking, with the
// session's searches left as max_uses; the recorded search is stored as
// a web_search call with its sources (the card, "search 1 of 20"), found
// later by session search, and its blocks go back in the next request as
// they came. Under ask (and plan, none) it is not offered, and Pilot's own
// web_search, which asks, stays.
func TestNativeWebSearch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, mode, rule string
		limit            int
		provider         bool // Settings › Web's "let the provider search"
		// max_uses of the first request and of the second; 0: not offered
		offered, next int
	}{
		{name: "ask: not offered", mode: "ask"},
		{name: "plan: not offered", mode: "plan"},
		{name: "none: not offered", mode: "none"},
		{name: "edits: not offered", mode: "edits"},
		{name: "a rule allows api.anthropic.com", mode: "ask", rule: "api.anthropic.com", offered: 20, next: 19},
		{name: "a rule for another host", mode: "ask", rule: "api.search.brave.com"},
		{name: "all asks nothing", mode: "all", offered: 20, next: 19},
		{name: "the cap: none left after one", mode: "all", limit: 1, offered: 1, next: 0},
		{name: "ask, the user let the provider search", mode: "ask", provider: true, offered: 20, next: 19},
		{name: "edits, the user let the provider search", mode: "edits", provider: true, offered: 20, next: 19},
		{name: "none, though the user let the provider search", mode: "none", provider: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			limit := tc.limit
			if limit == 0 {
				limit = 20
			}
			own, err := websearch.New(websearch.Config{Backend: websearch.SearXNG, URL: "http://127.0.0.1:9"})
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{WebSearch: func() (*websearch.Searcher, int, error) { return own, limit, nil }, ProviderSearch: func() bool { return tc.provider }}
			srv, bodies := nativeServer(t)
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{}, setup{mode: tc.mode, opt: opt})
			h.base, h.native = srv.URL, "api.anthropic.com"
			h.ruleAndAnswer(t, "web_search", tc.rule, nil)
			if r := h.turn("What's new in tech today?"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			if r := h.turn("More on Apple Ginza?"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			sent := bodies()
			if len(sent) != 2 {
				t.Fatalf("%d requests", len(sent))
			}
			first, ownFirst := offered(t, sent[0])
			next, _ := offered(t, sent[1])
			if first != tc.offered || next != tc.next {
				t.Fatalf("max_uses offered %d then %d, want %d then %d", first, next, tc.offered, tc.next)
			}
			if ownFirst != (first == 0) {
				t.Fatalf("Pilot's own web_search offered: %v, with the server tool's max_uses %d", ownFirst, first)
			}
			ctx := context.Background()
			calls, _ := h.st.ToolCalls.List(ctx, h.sess.ID)
			if tc.offered == 0 {
				if len(calls) != 0 {
					t.Fatalf("calls %+v", calls)
				}
				return
			}
			nativeStored(t, h, calls, limit, sent[1])
		})
	}
}

// nativeStored checks what the recorded search left: the call and its
// card, the sources, session search, and the next request.
func nativeStored(t *testing.T, h *harness, calls []store.ToolCall, limit int, next []byte) {
	t.Helper()
	ctx := context.Background()
	if len(calls) != 1 {
		t.Fatalf("calls %+v", calls)
	}
	c := calls[0]
	for _, want := range []string{
		"Searched by api.anthropic.com", `for "tech news today September 26 2025"`, "search 1 of " + strconv.Itoa(limit) + " in this session",
		"1. The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News\n   https://www.crescendo.ai/news/latest-ai-news-and-updates\n",
		"   3 hours ago\n",
	} {
		if !strings.Contains(c.Output, want) {
			t.Fatalf("the call's output lacks %q:\n%s", want, c.Output)
		}
	}
	if c.ToolUseID != "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k" || c.Name != "web_search" || c.Status != wire.ToolDone || c.Approval != store.ApprovalAuto {
		t.Fatalf("call %+v", c.Call)
	}
	// The card shown live is the stored one.
	var card *wire.ToolCall
	for _, e := range h.rec.events(wire.AgentTool) {
		if p := e.(wire.ToolPayload); p.Call.ID == c.ToolUseID {
			card = &p.Call
		}
	}
	if card == nil || card.Output != c.Output || card.Status != wire.ToolDone || card.Label != "→ api.anthropic.com searched the web: tech news today September 26 2025 (search 1 of "+strconv.Itoa(limit)+")" {
		t.Fatalf("card %+v", card)
	}
	// The message shows the card where the search was, and its cited text
	// with the sources.
	msgs := h.messages()
	view := present.Message(msgs[1])
	var place, sources int
	for _, b := range view.Blocks {
		if b.Type == wire.BlockToolUse && b.ID == c.ToolUseID {
			place++
		}
		sources += len(b.Sources)
	}
	if place != 1 || sources < 10 {
		t.Fatalf("the answer shows %d cards and %d sources: %+v", place, sources, view.Blocks)
	}
	// Session search finds a result's title later.
	found, err := h.st.Search(ctx, h.sess.ProjectID, "crescendo", 10)
	if err != nil || len(found) == 0 || found[0].SessionID != h.sess.ID || found[0].Kind != store.HitWebPage {
		t.Fatalf("session search %+v %v", found, err)
	}
	// The next request carries the search as it came.
	recorded, _ := os.ReadFile("../llm/testdata/anthropic_web_search.sse")
	for _, line := range bytes.Split(recorded, []byte("\n")) {
		var ev struct {
			ContentBlock json.RawMessage `json:"content_block"`
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok || json.Unmarshal(data, &ev) != nil || !bytes.Contains(ev.ContentBlock, []byte("web_search_tool_result")) {
			continue
		}
		var compact bytes.Buffer
		_ = json.Compact(&compact, ev.ContentBlock)
		if !bytes.Contains(next, compact.Bytes()) {
			t.Fatal("the next request lacks the search's results as they came")
		}
		return
	}
	t.Fatal("no result block in the recording")
}

// TestOpenRouterNativeSearch: OpenRouter's search, as pydantic-ai recorded
// it, has no blocks of its own: the answer's cited sources and the count
// of its usage are stored as one web_search call, counted toward the cap
// and found later by session search; the next request offers what is left.
func TestOpenRouterNativeSearch(t *testing.T) {
	t.Parallel()
	opt := Options{WebSearch: func() (*websearch.Searcher, int, error) {
		s, err := websearch.New(websearch.Config{}) // no service set up: the cap holds all the same
		return s, 5, err
	}}
	srv, bodies := recordedServer(t, recording(t, "openai_openrouter_web_search_annotations.sse"), `"openrouter:web_search"`,
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Noted.\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	h := newHarness(t, llm.ProviderOpenAI, fakellm.Script{}, setup{mode: "all", opt: opt})
	h.base, h.native = srv.URL+"/v1", "openrouter.ai"
	for _, text := range []string{"Find Pydantic AI's repository.", "Thanks."} {
		if r := h.turn(text); r != ReasonEndTurn {
			t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
		}
	}
	sent := bodies()
	if len(sent) != 2 || !bytes.Contains(sent[0], []byte(`{"type":"openrouter:web_search","parameters":{"max_uses":5}}`)) ||
		!bytes.Contains(sent[1], []byte(`"max_uses":4`)) {
		t.Fatalf("requests:\n%s", bytes.Join(sent, []byte("\n")))
	}
	ctx := context.Background()
	calls, _ := h.st.ToolCalls.List(ctx, h.sess.ID)
	if len(calls) != 1 || calls[0].Name != "web_search" || calls[0].Status != wire.ToolDone || string(calls[0].Input) != `{"searches":1}` {
		t.Fatalf("calls %+v (input %s)", calls, calls[0].Input)
	}
	for _, want := range []string{"Searched by openrouter.ai", "search 1 of 5", "1. AI Agent Framework, the Pydantic way - GitHub\n   https://github.com/pydantic/pydantic-ai\n", "https://pydantic.dev/docs/ai/overview/"} {
		if !strings.Contains(calls[0].Output, want) {
			t.Fatalf("output lacks %q:\n%s", want, calls[0].Output)
		}
	}
	found, err := h.st.Search(ctx, h.sess.ProjectID, "Pydantic Docs", 10)
	if err != nil || len(found) == 0 || found[0].Kind != store.HitWebPage {
		t.Fatalf("session search %+v %v", found, err)
	}
}

// TestNativeSearchPauseTurn: Anthropic pauses a long turn of its search
// with stop_reason pause_turn; the answer goes back as it is, in the same
// turn, and the model goes on.
func TestNativeSearchPauseTurn(t *testing.T) {
	t.Parallel()
	paused := strings.Replace(strings.Replace(textAnswer, "Noted.", "Searching further.", 1), `"end_turn"`, `"pause_turn"`, 1)
	srv, bodies := recordedServer(t, []byte(paused), `"web_search_20250305"`, textAnswer)
	opt := Options{WebSearch: func() (*websearch.Searcher, int, error) { return nil, 20, nil }}
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{}, setup{mode: "all", opt: opt})
	h.base, h.native = srv.URL, "api.anthropic.com"
	if r := h.turn("What's new?"); r != ReasonEndTurn {
		t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
	}
	sent := bodies()
	if len(sent) != 2 {
		t.Fatalf("%d requests in the turn, want 2", len(sent))
	}
	var next struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(sent[1], &next); err != nil {
		t.Fatal(err)
	}
	last := next.Messages[len(next.Messages)-1]
	if last.Role != "assistant" || last.Content[0].Text != "Searching further." {
		t.Fatalf("the paused answer did not go back as the last message: %+v", next.Messages)
	}
}

// TestNativeRunsError: a search the provider could not make (its error in
// place of the results, in the shape of Anthropic's documentation) is a
// failed web_search call saying the error in words, not counted.
func TestNativeRunsError(t *testing.T) {
	t.Parallel()
	msg := store.Message{ID: 7, Content: []llm.ContentBlock{
		{Type: llm.BlockServerToolUse, ID: "srvtoolu_a", Name: "web_search", Input: json.RawMessage(`{"query":"go 1.26"}`)},
		{Type: llm.BlockWebSearchResult, ToolUseID: "srvtoolu_a", Raw: json.RawMessage(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_a","content":{"type":"web_search_tool_result_error","error_code":"too_many_requests"}}`)},
		{Type: llm.BlockServerToolUse, ID: "srvtoolu_b", Name: "web_search", Input: json.RawMessage(`{"query":"go 1.27"}`)},
	}}
	runs := nativeRuns(msg, llm.Usage{WebSearches: 2})
	if len(runs) != 2 || runs[0].query != "go 1.26" || !strings.Contains(runs[0].failed, "too many searches") || !strings.Contains(runs[1].failed, "no results") {
		t.Fatalf("runs %+v", runs)
	}
	if out := searchText("api.anthropic.com", runs[0], 3, 20); strings.Contains(out, "search 3 of 20") || !strings.Contains(out, "Wait a minute") {
		t.Fatalf("output %q", out)
	}
}
