package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/webfetch"
	"pilot/backend/wire"
)

// pageServer is a local web server; hits counts the requests it served.
func pageServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	return pageServerWith(t, nil)
}

// pageServerWith is pageServer with connState set before it starts.
func pageServerWith(t *testing.T, connState func(net.Conn, http.ConnState)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><title>Gopher facts</title></head><body><h1>Gophers</h1><p>Gophers are <b>burrowing</b> rodents (%s).</p></body></html>`, r.URL.Path)
	}))
	srv.Config.ConnState = connState
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &hits
}

func fetchCall(id, url, prompt string) fakellm.ToolCall {
	in, _ := json.Marshal(map[string]string{"url": url, "prompt": prompt})
	return fakellm.ToolCall{ID: id, Name: "web_fetch", Input: in}
}

func TestWebFetch(t *testing.T) {
	t.Parallel()
	asksAbout := func(r fakellm.Request) bool { return strings.Contains(r.System, "question about a web page") }
	notAsking := func(r fakellm.Request) bool { return !asksAbout(r) }
	cases := []struct {
		name     string
		mode     string
		rule     string // a web_fetch allow rule for this host
		public   bool   // treat the test server's loopback address as public
		prompt   string
		twice    bool // a second fetch from the same host
		decide   *wire.CommandDecision
		asked    int
		hits     int32
		want     []string // in the first result
		rejected bool
		ruleMade bool
		stored   int
	}{
		{name: "a rule allows loopback", mode: "ask", rule: "127.0.0.1", hits: 1, stored: 1,
			want: []string{"# Gopher facts", "# Gophers", "**burrowing** rodents (/page1)"}},
		{name: "loopback refused without a rule", mode: "all", hits: 0, rejected: true,
			want: []string{"Not fetched: 127.0.0.1 is a private, loopback or link-local address", `allow web_fetch "127.0.0.1"`}},
		{name: "a rule for another host does not allow it", mode: "all", rule: "localhost", hits: 0, rejected: true,
			want: []string{"private, loopback or link-local address"}},
		{name: "allow web_fetch * opens no loopback address", mode: "ask", rule: "*", hits: 0, rejected: true,
			want: []string{"names exactly", `allow web_fetch "127.0.0.1"`, "neither `allow web_fetch *` nor a one-time yes"}},
		{name: "a wildcard naming the address opens nothing either", mode: "ask", rule: "127.0.0.*", hits: 0, rejected: true,
			want: []string{"private, loopback or link-local address"}},
		{name: "a one-time yes opens no loopback address", mode: "ask", decide: &wire.CommandDecision{Approve: true}, hits: 0, rejected: true,
			want: []string{"names exactly"}},
		{name: "asked once per host", mode: "ask", public: true, twice: true, decide: &wire.CommandDecision{Approve: true},
			asked: 1, hits: 2, stored: 2, want: []string{"**burrowing** rodents (/page1)"}},
		{name: "always allow adds the host rule", mode: "ask", public: true, decide: &wire.CommandDecision{Approve: true, AlwaysAllow: true},
			asked: 1, hits: 1, stored: 1, ruleMade: true, want: []string{"# Gophers"}},
		{name: "refused host is not fetched", mode: "ask", public: true, decide: &wire.CommandDecision{Approve: false, Feedback: "not that site"},
			asked: 1, hits: 0, rejected: true, want: []string{"did not allow fetching from 127.0.0.1", "not that site"}},
		{name: "mode none refuses", mode: "none", public: true, hits: 0, rejected: true, want: []string{"Not done"}},
		{name: "a prompt is answered from the page", mode: "ask", rule: "127.0.0.1", prompt: "what digs?", hits: 1, stored: 1,
			want: []string{"Answer to \"what digs?\" from the page:", "Gophers dig."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			web, hits := pageServer(t)
			turns := []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return notAsking(r) && len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{fetchCall("f1", web.URL+"/page1", tc.prompt)}},
				{Match: asksAbout, When: &fakellm.When{LastUserContains: "burrowing"}, Text: "Gophers dig."},
			}
			if tc.twice {
				turns = append(turns, fakellm.Turn{Match: func(r fakellm.Request) bool {
					return notAsking(r) && len(r.ToolResults) > 0 && r.ToolResults[0].ToolUseID == "f1"
				}, When: &fakellm.When{HasToolResult: true},
					ToolCalls: []fakellm.ToolCall{fetchCall("f2", web.URL+"/page2", "")}})
			}
			turns = append(turns, fakellm.Turn{Match: notAsking, When: &fakellm.When{HasToolResult: true}, Text: "Done."})
			opt := Options{}
			if tc.public {
				opt.WebFetch = webfetch.Options{AllowPrivate: func(string) bool { return true }}
			}
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: turns}, setup{mode: tc.mode, opt: opt})
			ctx := context.Background()
			approvals := h.ruleAndAnswer(t, "web_fetch", tc.rule, tc.decide)
			if r := h.turn("read the gopher page"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			asked := approvals()
			if len(asked) != tc.asked || (tc.asked > 0 && (asked[0].Host != "127.0.0.1" || asked[0].Command != "Fetch "+web.URL+"/page1")) {
				t.Fatalf("asked %+v", asked)
			}
			if hits.Load() != tc.hits {
				t.Fatalf("the web server was hit %d times, want %d", hits.Load(), tc.hits)
			}
			var first fakellm.ToolResult
			for _, r := range h.srv.Requests() {
				for _, tr := range r.ToolResults {
					if tr.ToolUseID == "f1" {
						first = tr
					}
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(first.Content, w) {
					t.Fatalf("result lacks %q:\n%s", w, first.Content)
				}
			}
			calls, _ := h.st.ToolCalls.List(ctx, h.sess.ID)
			if rejected := calls[0].Status == wire.ToolRejected; rejected != tc.rejected {
				t.Fatalf("status %s", calls[0].Status)
			}
			pages, err := h.st.WebPages.List(ctx, h.sess.ID)
			if err != nil || len(pages) != tc.stored {
				t.Fatalf("%d pages stored, want %d (%v)", len(pages), tc.stored, err)
			}
			if tc.stored > 0 {
				// The page is found by searching the project's sessions.
				hits, err := h.st.Search(ctx, h.sess.ProjectID, "burrowing rodents", 10)
				if err != nil || len(hits) == 0 || hits[0].SessionID != h.sess.ID || pages[0].Title != "Gopher facts" {
					t.Fatalf("search %+v %v", hits, err)
				}
			}
			rules, _ := h.st.Rules.List(ctx, h.sess.ProjectID)
			made := false
			for _, r := range rules {
				made = made || (r.Tool == "web_fetch" && r.Pattern == "127.0.0.1" && tc.rule == "")
			}
			if made != tc.ruleMade {
				t.Fatalf("rules %+v", rules)
			}
		})
	}
}

// A host the user allowed in a session is not asked about again after a
// restart: the approval is in the session's history.
func TestWebFetchHostAfterRestart(t *testing.T) {
	t.Parallel()
	web, hits := pageServer(t)
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "first"}, ToolCalls: []fakellm.ToolCall{fetchCall("f1", web.URL+"/a", "")}},
		{When: &fakellm.When{LastUserContains: "second"}, ToolCalls: []fakellm.ToolCall{fetchCall("f2", web.URL+"/b", "")}},
		{When: &fakellm.When{HasToolResult: true}, Text: "Read.", Repeat: true},
	}}, setup{mode: "ask", opt: Options{WebFetch: webfetch.Options{AllowPrivate: func(string) bool { return true }}}})
	var asked atomic.Int32
	approve := func(a wire.Approval) {
		asked.Add(1)
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
	}
	h.approveWith(approve)
	if r := h.turn("first"); r != ReasonEndTurn || asked.Load() != 1 {
		t.Fatalf("reason %s, asked %d", r, asked.Load())
	}
	h.restart()
	h.approveWith(approve)
	if r := h.turn("second"); r != ReasonEndTurn || asked.Load() != 1 || hits.Load() != 2 {
		t.Fatalf("reason %s, asked %d, hits %d", r, asked.Load(), hits.Load())
	}
}
