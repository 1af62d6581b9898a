package agent

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// searxng is a SearXNG instance on loopback answering every search with
// the documented answer (backend/websearch/testdata); hits counts them.
func searxng(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	body, err := os.ReadFile("../websearch/testdata/searxng_search.json")
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// ruleAndAnswer adds the project rule `allow tool pattern` (pattern ""
// : none) and answers every approval with decide (nil: none); it returns
// the approvals asked so far.
func (h *harness) ruleAndAnswer(t *testing.T, tool, pattern string, decide *wire.CommandDecision) func() []wire.Approval {
	t.Helper()
	if pattern != "" {
		if _, err := h.st.Rules.Add(context.Background(), store.Rule{ProjectID: h.sess.ProjectID, Tool: tool, Pattern: pattern, Effect: store.Effect("allow")}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var asked []wire.Approval
	h.approveWith(func(a wire.Approval) {
		mu.Lock()
		asked = append(asked, a)
		mu.Unlock()
		if decide != nil {
			h.m.Approvals().DecideCommand(a.ID, *decide)
		}
	})
	return func() []wire.Approval {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(asked)
	}
}

// searchCall is a web_search call; max > 0 sets max_results.
func searchCall(id, query string, max int) fakellm.ToolCall {
	p := map[string]any{"query": query}
	if max > 0 {
		p["max_results"] = max
	}
	in, _ := json.Marshal(p)
	return fakellm.ToolCall{ID: id, Name: "web_search", Input: in}
}

func TestWebSearch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		mode     string
		rule     string // a web_search allow rule
		limit    int
		max      int // max_results of the first call
		decide   *wire.CommandDecision
		asked    int
		hits     int32
		want     []string // in the first result
		second   []string // in the second result
		rejected bool
	}{
		{name: "asked once per service", mode: "ask", decide: &wire.CommandDecision{Approve: true}, asked: 1, hits: 2,
			want:   []string{"Search 1 of 20 in this session.", `SearXNG results for "searxng docs" (2)`, "1. searxng/searxng: SearXNG is a free internet metasearch engine", "https://github.com/searxng/searxng", "Date: 2024-11-02T00:00:00"},
			second: []string{"Search 2 of 20"}},
		{name: "asked even in edits mode", mode: "edits", decide: &wire.CommandDecision{Approve: true}, asked: 1, hits: 2, want: []string{"Search 1 of 20"}},
		{name: "a rule allows the service's host", mode: "ask", rule: "127.0.0.1", hits: 2, want: []string{"metasearch engine"}},
		{name: "max_results keeps the first results", mode: "all", max: 1, hits: 2, want: []string{`SearXNG results for "searxng docs" (1)`}},
		{name: "refused: nothing is sent", mode: "ask", decide: &wire.CommandDecision{Approve: false}, asked: 2, hits: 0, rejected: true,
			want: []string{"did not allow searching with SearXNG (127.0.0.1)"}},
		{name: "mode none refuses", mode: "none", hits: 0, rejected: true, want: []string{"Not done"}},
		{name: "the cap stops the second search", mode: "all", limit: 1, hits: 1,
			want: []string{"Search 1 of 1"}, second: []string{"Not searched: this session made its 1 searches"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, hits := searxng(t)
			s, err := websearch.New(websearch.Config{Backend: websearch.SearXNG, URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			limit := tc.limit
			if limit == 0 {
				limit = 20
			}
			opt := Options{WebSearch: func() (*websearch.Searcher, int, error) { return s, limit, nil }}
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{searchCall("s1", "searxng docs", tc.max)}},
				{Match: func(r fakellm.Request) bool { return len(r.ToolResults) > 0 && r.ToolResults[0].ToolUseID == "s1" },
					ToolCalls: []fakellm.ToolCall{searchCall("s2", "searxng api", 0)}},
				{When: &fakellm.When{HasToolResult: true}, Text: "Done."},
			}}, setup{mode: tc.mode, opt: opt})
			ctx := context.Background()
			approvals := h.ruleAndAnswer(t, "web_search", tc.rule, tc.decide)
			if r := h.turn("search the docs"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			asked := approvals()
			if len(asked) != tc.asked || (tc.asked > 0 && (asked[0].Host != "127.0.0.1" || asked[0].Kind != wire.ApprovalFetch ||
				asked[0].Command != `Search SearXNG (127.0.0.1) for "searxng docs" (search 1 of 20)`)) {
				t.Fatalf("asked %+v", asked)
			}
			if hits.Load() != tc.hits {
				t.Fatalf("the search service was hit %d times, want %d", hits.Load(), tc.hits)
			}
			results := map[string]string{}
			for _, r := range h.srv.Requests() {
				if !slices.Contains(r.Tools, "web_search") {
					t.Fatalf("web_search not offered: %v", r.Tools)
				}
				for _, tr := range r.ToolResults {
					results[tr.ToolUseID] = tr.Content
				}
			}
			for id, want := range map[string][]string{"s1": tc.want, "s2": tc.second} {
				for _, w := range want {
					if !strings.Contains(results[id], w) {
						t.Fatalf("%s lacks %q:\n%s", id, w, results[id])
					}
				}
			}
			calls, _ := h.st.ToolCalls.List(ctx, h.sess.ID)
			if rejected := calls[0].Status == wire.ToolRejected; rejected != tc.rejected {
				t.Fatalf("status %s", calls[0].Status)
			}
			if tc.hits > 0 {
				// A later search of past sessions finds a result's title.
				found, err := h.st.Search(ctx, h.sess.ProjectID, "free internet metasearch", 10)
				if err != nil || len(found) == 0 || found[0].SessionID != h.sess.ID || found[0].Kind != store.HitToolOutput {
					t.Fatalf("session search %+v %v", found, err)
				}
			}
		})
	}
}

// Without a search service web_search is not offered, and a call of it
// (a model that names it anyway) is answered with the tool list.
func TestWebSearchNotOfferedWithoutService(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]Options{
		"no setting": {},
		"not set up": {WebSearch: func() (*websearch.Searcher, int, error) {
			s, err := websearch.New(websearch.Config{})
			return s, 20, err
		}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{searchCall("s1", "anything", 0)}},
				{When: &fakellm.When{HasToolResult: true}, Text: "Done."},
			}}, setup{mode: "all", opt: opt})
			if r := h.turn("search"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			for _, r := range h.srv.Requests() {
				if slices.Contains(r.Tools, "web_search") {
					t.Fatalf("web_search offered: %v", r.Tools)
				}
				for _, tr := range r.ToolResults {
					if !strings.Contains(tr.Content, `There is no tool called "web_search"`) {
						t.Fatalf("result %q", tr.Content)
					}
				}
			}
		})
	}
}
