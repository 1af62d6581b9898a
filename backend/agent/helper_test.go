package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// isHelper reports whether a request is a helper's (its system prompt).
func isHelper(r fakellm.Request) bool { return strings.Contains(r.System, "You are a helper of Pilot") }

// helperOpening matches the first call of the helper whose prompt holds
// tag.
func helperOpening(tag string) func(fakellm.Request) bool {
	return func(r fakellm.Request) bool {
		return isHelper(r) && len(r.ToolResults) == 0 && strings.Contains(r.LastUserText, tag)
	}
}

var helperFiles = map[string]string{"alpha.txt": "alpha-content\n", "beta.txt": "beta-content\n"}

// twoHelpers is a main agent that starts two helpers, each of which reads
// a file and answers; fault (may be nil) is put on the turns named.
func twoHelpers(faults map[string]*fakellm.Fault) fakellm.Script {
	use := fakellm.Usage{InputTokens: 100, OutputTokens: 10}
	task := func(id, desc, prompt string) fakellm.ToolCall {
		in, _ := json.Marshal(map[string]string{"description": desc, "prompt": prompt})
		return fakellm.ToolCall{ID: id, Name: "task", Input: in}
	}
	return fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool { return !isHelper(r) && len(r.ToolResults) == 0 }, Usage: &use,
			ToolCalls: []fakellm.ToolCall{task("t1", "find alpha", "HELPER-ALPHA: where is alpha?"), task("t2", "find beta", "HELPER-BETA: where is beta?")}},
		{Match: helperOpening("HELPER-ALPHA"), Usage: &use, Fault: faults["alpha1"], ToolCalls: []fakellm.ToolCall{toolCall("ha1", "read_file", `{"path":"alpha.txt"}`)}},
		{Match: helperOpening("HELPER-BETA"), Usage: &use, Fault: faults["beta1"], ToolCalls: []fakellm.ToolCall{toolCall("hb1", "read_file", `{"path":"beta.txt"}`)}},
		{Match: isHelper, When: &fakellm.When{ToolResultContains: "alpha-content"}, Usage: &use, Fault: faults["alpha2"], Text: "Alpha lives in alpha.txt."},
		{Match: isHelper, When: &fakellm.When{ToolResultContains: "beta-content"}, Usage: &use, Fault: faults["beta2"], Text: "Beta lives in beta.txt."},
		{When: &fakellm.When{ToolResultContains: "Alpha lives"}, Usage: &use, Text: "Both found."},
	}}
}

// helperOrder returns, for the helper requests the server received, which
// helper sent each: "a" or "b".
func helperOrder(reqs []fakellm.Request) string {
	var order strings.Builder
	for _, r := range reqs {
		if !isHelper(r) {
			continue
		}
		switch {
		case strings.Contains(r.LastUserText, "HELPER-ALPHA") && len(r.ToolResults) == 0,
			slices.ContainsFunc(r.ToolResults, func(t fakellm.ToolResult) bool { return strings.Contains(t.Content, "alpha-content") }):
			order.WriteString("a")
		default:
			order.WriteString("b")
		}
	}
	return order.String()
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			// Each helper's first answer takes a while, so that run
			// together both first calls arrive before either second one.
			slow := &fakellm.Fault{DelayMs: 20}
			h := newHarness(t, format, twoHelpers(map[string]*fakellm.Fault{"alpha1": slow, "beta1": slow}), setup{mode: "ask", files: helperFiles})
			if r := h.turn("survey the project"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			reqs := h.srv.Requests()
			if len(reqs) != 6 {
				t.Fatalf("%d requests", len(reqs))
			}
			// Both helpers' first calls went out before either's second.
			if o := helperOrder(reqs); o != "abab" && o != "baba" && o != "abba" && o != "baab" {
				t.Fatalf("helper calls in the order %q: not concurrent", o)
			}
			for _, r := range reqs {
				if isHelper(r) && !slices.Equal(r.Tools, []string{"list_files", "read_file", "glob", "grep"}) && len(r.Tools) > 0 {
					t.Fatalf("a helper was offered %v", r.Tools)
				}
			}
			got := map[string]string{}
			for _, tr := range reqs[5].ToolResults {
				got[tr.ToolUseID] = tr.Content
			}
			if got["t1"] != "Alpha lives in alpha.txt." || got["t2"] != "Beta lives in beta.txt." {
				t.Fatalf("task results %v", got)
			}
			checkCalls := func() {
				t.Helper()
				calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
				if err != nil {
					t.Fatal(err)
				}
				byID := map[string]store.ToolCall{}
				for _, c := range calls {
					byID[c.ToolUseID] = c
				}
				for id, want := range map[string]string{"t1/1": "alpha-content", "t2/1": "beta-content"} {
					c := byID[id]
					if c.ParentToolUseID != strings.TrimSuffix(id, "/1") || c.Name != "read_file" || c.Status != wire.ToolDone || !strings.Contains(c.Output, want) {
						t.Fatalf("nested call %s: %+v", id, c)
					}
				}
				if byID["t1"].Status != wire.ToolDone || byID["t1"].ParentToolUseID != "" || len(calls) != 4 {
					t.Fatalf("calls %+v", calls)
				}
			}
			checkCalls()
			nested := 0
			for _, p := range h.rec.events(wire.AgentTool) {
				if c := p.(wire.ToolPayload).Call; c.ParentID != "" {
					nested++
					if c.MessageID != h.messages()[1].ID || !strings.HasPrefix(c.ID, c.ParentID+"/") {
						t.Fatalf("nested card %+v", c)
					}
				}
			}
			if nested != 4 { // running, then done, for each
				t.Fatalf("%d nested card events", nested)
			}
			// Every call's usage counts: 2 main calls and 4 helper calls.
			sess, err := h.st.Sessions.Get(context.Background(), h.sess.ID)
			if err != nil || sess.Usage.InputTokens != 600 || sess.Usage.OutputTokens != 60 {
				t.Fatalf("usage %+v %v", sess.Usage, err)
			}
			checkPairs(t, h.messages())
			h.restart()
			checkCalls()
		})
	}
}

// With one helper at a time, the second starts when the first is done.
func TestHelpersOneAtATime(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, twoHelpers(nil), setup{mode: "ask", files: helperFiles, opt: Options{Helpers: 1}})
	if r := h.turn("survey the project"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if o := helperOrder(h.srv.Requests()); o != "aabb" && o != "bbaa" {
		t.Fatalf("helper calls in the order %q with one slot", o)
	}
}

// ourGoroutines counts the goroutines running the agent's or the model
// clients' code (the fake server's are not ours).
func ourGoroutines() (int, string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	var ours []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "pilot/backend/agent.") || strings.Contains(g, "pilot/backend/llm.") || strings.Contains(g, "pilot/backend/tools.") {
			n++
			ours = append(ours, g)
		}
	}
	return n, strings.Join(ours, "\n\n")
}

// Cancelling a turn while two helpers run stops both, records what they
// did, and leaves no goroutine behind. Not parallel: it counts goroutines.
func TestHelpersCancel(t *testing.T) {
	stall := &fakellm.Fault{StallAfterEvents: 2}
	h := newHarness(t, llm.ProviderAnthropic, twoHelpers(map[string]*fakellm.Fault{"alpha1": stall, "beta2": stall}), setup{mode: "ask", files: helperFiles})
	before, _ := ourGoroutines()
	if err := h.m.Send(context.Background(), h.sess.ID, "survey the project", nil); err != nil {
		t.Fatal(err)
	}
	// Wait until alpha's first call and beta's second (after its
	// read_file) are both in flight.
	deadline := time.Now().Add(20 * time.Second)
	for helperOrder(h.srv.Requests()) != "abb" && helperOrder(h.srv.Requests()) != "bab" && helperOrder(h.srv.Requests()) != "bba" {
		if time.Now().After(deadline) {
			t.Fatalf("helpers did not start: %q", helperOrder(h.srv.Requests()))
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.m.Cancel(h.sess.ID)
	if r := h.wait(); r != ReasonCancelled {
		t.Fatalf("reason %s", r)
	}
	calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]wire.ToolStatus{}
	for _, c := range calls {
		status[c.ToolUseID] = c.Status
	}
	want := map[string]wire.ToolStatus{"t1": wire.ToolCancelled, "t2": wire.ToolCancelled, "t2/1": wire.ToolDone}
	if fmt.Sprint(status) != fmt.Sprint(want) {
		t.Fatalf("statuses %v, want %v", status, want)
	}
	checkPairs(t, h.messages())
	var now int
	var stacks string
	for end := time.Now().Add(10 * time.Second); ; {
		if now, stacks = ourGoroutines(); now <= before || time.Now().After(end) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if now > before {
		t.Fatalf("%d goroutines of ours after the cancel, %d before:\n%s", now, before, stacks)
	}
}
