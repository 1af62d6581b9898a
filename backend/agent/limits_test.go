package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

func TestFiftyCallLimit(t *testing.T) {
	t.Parallel()
	var turns []fakellm.Turn
	for i := 1; i <= 60; i++ {
		turns = append(turns, fakellm.Turn{ToolCalls: []fakellm.ToolCall{toolCall(fmt.Sprintf("r%d", i), "read_file", fmt.Sprintf(`{"path":"f.txt","start_line":%d}`, i))}})
	}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: turns}, setup{files: map[string]string{"f.txt": numbered(100)}})
	if r := h.turn("Read it line by line"); r != ReasonLimit {
		t.Fatalf("reason %s", r)
	}
	if n := len(h.srv.Requests()); n != DefaultMaxCalls {
		t.Errorf("%d model calls, want %d", n, DefaultMaxCalls)
	}
	if n := h.rec.notices("limit"); len(n) != 1 || !strings.Contains(n[0], "50 model calls") {
		t.Errorf("notices %v", n)
	}
	checkPairs(t, h.messages())
}

func TestLoopGuard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "openai", fakellm.Script{Turns: []fakellm.Turn{
		{Repeat: true, ToolCalls: []fakellm.ToolCall{{Name: "read_file", Input: []byte(`{"path":"f.txt"}`)}}},
	}}, setup{files: map[string]string{"f.txt": "x\n"}})
	if r := h.turn("Read"); r != ReasonLoopGuard {
		t.Fatalf("reason %s: %+v", r, h.rec.events(wire.AgentError))
	}
	if n := len(h.srv.Requests()); n != 3 {
		t.Errorf("%d model calls", n)
	}
	if len(h.rec.notices("loop_guard")) != 1 {
		t.Error("no loop guard notice")
	}
	ms := h.messages()
	checkPairs(t, ms)
	last := ms[len(ms)-1].Content[0]
	if !last.IsError || !strings.HasPrefix(last.Content, "Not run: you made this same read_file call 3 times in a row") {
		t.Errorf("last result %+v", last)
	}
}

func TestInvalidInputAndUnknownTool(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{
					{ID: "bad", Name: "read_file", RawInput: `{"path": `},
					toolCall("unk", "delete_everything", `{"really":true}`),
					toolCall("ok", "read_file", `{"path":"f.txt"}`),
				}},
				{Text: "Sorry.", When: &fakellm.When{HasToolResult: true}},
			}}, setup{files: map[string]string{"f.txt": "content\n"}})
			if r := h.turn("Go"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %+v", r, h.rec.events(wire.AgentError))
			}
			res := h.results(1)
			if len(res) != 3 || res[0].ToolUseID != "bad" || res[1].ToolUseID != "unk" || res[2].ToolUseID != "ok" {
				t.Fatalf("results %+v", res)
			}
			if !wireError(format, res[0]) || !strings.Contains(res[0].Content, "could not be used") {
				t.Errorf("invalid input result %+v", res[0])
			}
			if !wireError(format, res[1]) || !strings.Contains(res[1].Content, "read_file") {
				t.Errorf("unknown tool result %+v", res[1])
			}
			if wireError(format, res[2]) || !strings.Contains(res[2].Content, "content") {
				t.Errorf("good call %+v", res[2])
			}
			checkPairs(t, h.messages())
		})
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Fault: &fakellm.Fault{Status: 429, RetryAfter: "0"}},
				{Text: "Here I am."},
			}}, setup{})
			if r := h.turn("Hello"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			if n := h.rec.notices("retry"); len(n) != 1 || !strings.HasPrefix(n[0], "Retrying in") {
				t.Errorf("retry notices %v", n)
			}
			ms := h.messages()
			if ms[len(ms)-1].Content[0].Text != "Here I am." {
				t.Errorf("answer %+v", ms[len(ms)-1])
			}
		})
	}
}

func TestProviderErrorIsHuman(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{Fault: &fakellm.Fault{Status: 401}},
		{Text: "Back."},
	}}, setup{})
	if r := h.turn("Hello"); r != ReasonError {
		t.Fatalf("reason %s", r)
	}
	errs := h.rec.events(wire.AgentError)
	if len(errs) != 1 {
		t.Fatalf("errors %+v", errs)
	}
	e := errs[0].(wire.ErrorPayload)
	if e.Kind != "auth" || !strings.Contains(e.Message, "key") || e.Retryable {
		t.Errorf("error %+v", e)
	}
	if h.m.State(h.sess.ID) != Error {
		t.Errorf("state %s", h.m.State(h.sess.ID))
	}
	if r := h.turn("Again"); r != ReasonEndTurn {
		t.Fatalf("after the error: %s", r)
	}
}

const tooLong = `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}`

func isSummary(r fakellm.Request) bool { return strings.Contains(r.System, "You compact the history") }

func TestContextTooLongThenCompaction(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"big.txt"}`)}, Match: func(r fakellm.Request) bool { return r.LastUserText == "Read big.txt" }},
		{Text: "It is big.", Match: func(r fakellm.Request) bool { return len(r.ToolResults) == 1 }},
		{Fault: &fakellm.Fault{Status: 400, Body: tooLong}, Match: func(r fakellm.Request) bool { return r.LastUserText == "And now?" }},
		{Text: "SUMMARY: the user asked to read big.txt; it is big.", Match: isSummary},
		{Text: "Now I know.", Match: func(r fakellm.Request) bool { return strings.HasSuffix(r.LastUserText, "And now?") }},
	}}, setup{files: map[string]string{"big.txt": numbered(300)}})
	if r := h.turn("Read big.txt"); r != ReasonEndTurn {
		t.Fatalf("first turn %s", r)
	}
	if r := h.turn("And now?"); r != ReasonEndTurn {
		t.Fatalf("second turn %s; errors %+v", r, h.rec.events(wire.AgentError))
	}
	reqs := h.srv.Requests()
	if len(reqs) != 5 || !isSummary(reqs[3]) {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(fmt.Sprint(reqs[3].Body), "It is big.") {
		t.Error("the summariser did not see the old turns")
	}
	retry := fmt.Sprint(reqs[4].Body)
	if !strings.Contains(retry, "SUMMARY: the user asked") || strings.Contains(retry, "line 300") || !strings.Contains(retry, "Read big.txt") {
		t.Errorf("retried request: %s", retry)
	}
	if n := h.rec.notices("compacted"); len(n) != 1 {
		t.Errorf("notices %v", n)
	}
	// The store keeps the whole history.
	if ms := h.messages(); len(ms) != 6 {
		t.Errorf("%d stored messages", len(ms))
	}
}

func TestElisionNearTheWindow(t *testing.T) {
	t.Parallel()
	var turns []fakellm.Turn
	for i := 1; i <= 4; i++ {
		turns = append(turns, fakellm.Turn{ToolCalls: []fakellm.ToolCall{toolCall(fmt.Sprintf("r%d", i), "read_file", fmt.Sprintf(`{"path":"f%d.txt"}`, i))}})
	}
	turns = append(turns, fakellm.Turn{Text: "Read them all.", Usage: &fakellm.Usage{InputTokens: 10, OutputTokens: 5}})
	files := map[string]string{}
	for i := 1; i <= 4; i++ {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Repeat(fmt.Sprintf("file %d has a long line of text here\n", i), 100)
	}
	// The window holds the tool definitions too: it was 10,000 tokens
	// before the diagnostics, job_output and job_stop tools, whose
	// descriptions tipped it into compaction; with 12,000 the four outputs still come near its end.
	h := newHarness(t, "anthropic", fakellm.Script{Turns: turns}, setup{files: files, opt: Options{ContextWindow: 12000}})
	if r := h.turn("Read the four files"); r != ReasonEndTurn {
		t.Fatalf("reason %s; %+v", r, h.rec.events(wire.AgentError))
	}
	reqs := h.srv.Requests()
	last := fmt.Sprint(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "[output elided to save context") || !strings.Contains(last, "file 4 has") {
		t.Errorf("last request does not elide the oldest outputs only")
	}
	if strings.Count(last, "file 1 has") > 0 {
		t.Error("the oldest output was kept")
	}
	if len(h.rec.notices("compacted")) == 0 {
		t.Error("no notice")
	}
}

func TestCompactNow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "openai", fakellm.Script{Turns: []fakellm.Turn{
		{Text: "One.", Match: func(r fakellm.Request) bool { return r.LastUserText == "first" }},
		{Text: "Two.", Match: func(r fakellm.Request) bool { return r.LastUserText == "second" }},
		{Text: "Three.", Match: func(r fakellm.Request) bool { return r.LastUserText == "third" }},
		{Text: "SUMMARY-XYZ", Match: isSummary},
		{Text: "Four.", Match: func(r fakellm.Request) bool { return r.LastUserText == "fourth" }},
	}}, setup{})
	for _, m := range []string{"first", "second", "third"} {
		if r := h.turn(m); r != ReasonEndTurn {
			t.Fatalf("%s: %s", m, r)
		}
	}
	if err := h.m.CompactNow(context.Background(), h.sess.ID); err != nil {
		t.Fatal(err)
	}
	if h.m.State(h.sess.ID) != Idle {
		t.Errorf("state %s", h.m.State(h.sess.ID))
	}
	if r := h.turn("fourth"); r != ReasonEndTurn {
		t.Fatalf("fourth: %s", r)
	}
	reqs := h.srv.Requests()
	last := fmt.Sprint(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, "SUMMARY-XYZ") || strings.Contains(last, "Two.") || !strings.Contains(last, "first") {
		t.Errorf("request after compaction: %s", last)
	}
	if err := newHarness(t, "openai", fakellm.Script{}, setup{}).m.CompactNow(context.Background(), 1); err == nil {
		t.Error("compacting an empty session succeeded")
	}
}

func TestBudgetPause(t *testing.T) {
	t.Parallel()
	for _, cont := range []bool{false, true} {
		t.Run(fmt.Sprint("continue=", cont), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("r1", "list_files", `{}`)}, Usage: &fakellm.Usage{InputTokens: 900, OutputTokens: 200}},
				{Text: "Done.", Usage: &fakellm.Usage{InputTokens: 10, OutputTokens: 5}},
			}}, setup{opt: Options{BudgetTokens: 1000}})
			var asked []wire.Approval
			h.approveWith(func(a wire.Approval) {
				asked = append(asked, a)
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: cont})
			})
			want := ReasonBudget
			if cont {
				want = ReasonEndTurn
			}
			if r := h.turn("List"); r != want {
				t.Fatalf("reason %s", r)
			}
			if len(asked) != 1 || asked[0].Kind != wire.ApprovalBudget || !strings.Contains(asked[0].Command, "1100 tokens used, the limit is 1000") {
				t.Errorf("asked %+v", asked)
			}
			if len(h.rec.notices("budget")) != 1 {
				t.Error("no budget notice")
			}
			s, _ := h.st.Sessions.Get(t.Context(), h.sess.ID)
			if s.Usage.InputTokens < 900 || (cont && s.Usage.InputTokens != 910) {
				t.Errorf("usage %+v", s.Usage)
			}
			u := h.rec.events(wire.AgentUsage)
			if last := u[len(u)-1].(wire.UsagePayload).Usage; last.InputTokens != s.Usage.InputTokens || !last.CostKnown || last.CostUSD <= 0 {
				t.Errorf("usage event %+v", last)
			}
			checkPairs(t, h.messages())
		})
	}
}

func TestPermissionRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		mode    string
		rules   []store.Rule
		command string
		asked   bool
		ran     bool
	}{
		{"allow rule skips the question", "ask", []store.Rule{{Tool: "run_bash", Pattern: "echo * > out.txt", Effect: store.Allow}}, "echo hi > out.txt", false, true},
		{"a rule that does not name the redirection asks", "ask", []store.Rule{{Tool: "run_bash", Pattern: "echo *", Effect: store.Allow}}, "echo hi > out.txt", true, true},
		{"no rule asks", "ask", nil, "echo hi > out.txt", true, true},
		{"deny rule refuses in mode all", "all", []store.Rule{{Tool: "run_bash", Pattern: "echo *", Effect: store.Deny}}, "echo hi > out.txt", false, false},
		{"deny beats allow", "ask", []store.Rule{
			{Tool: "run_bash", Pattern: "echo *", Effect: store.Allow},
			{Tool: "run_bash", Pattern: "echo hi*", Effect: store.Deny},
		}, "echo hi > out.txt", false, false},
		{"mode none refuses", "none", nil, "echo hi > out.txt", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", fmt.Sprintf(`{"command":%q}`, c.command))}},
				{Text: "ok"},
			}}, setup{mode: c.mode})
			for _, r := range c.rules {
				r.ProjectID = h.sess.ProjectID
				if _, err := h.st.Rules.Add(t.Context(), r); err != nil {
					t.Fatal(err)
				}
			}
			asked := false
			h.approveWith(func(a wire.Approval) {
				asked = true
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true})
			})
			if r := h.turn("Run"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			_, err := fileExists(h, "out.txt")
			if asked != c.asked || (err == nil) != c.ran {
				t.Errorf("asked %v ran %v", asked, err == nil)
			}
			res := h.results(1)[0]
			if !c.ran && (!res.IsError || !strings.HasPrefix(res.Content, "Not done:")) {
				t.Errorf("refusal result %+v", res)
			}
		})
	}
}

func TestAlwaysAllowAddsRule(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", `{"command":"echo one"}`)}},
		{ToolCalls: []fakellm.ToolCall{toolCall("b2", "run_bash", `{"command":"echo one"}`)}},
		{Text: "ok"},
	}}, setup{})
	n := 0
	h.approveWith(func(a wire.Approval) {
		n++
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true, AlwaysAllow: true})
	})
	if r := h.turn("Run twice"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	rules, _ := h.st.Rules.List(t.Context(), h.sess.ProjectID)
	if n != 1 || len(rules) != 1 || rules[0].Pattern != "echo one" || rules[0].Effect != store.Allow {
		t.Errorf("asked %d times; rules %+v", n, rules)
	}
}

// wireError reports whether a tool result was sent as an error: Anthropic
// has is_error, OpenAI's client prefixes the content.
func wireError(format string, r fakellm.ToolResult) bool {
	if format == "openai" {
		return strings.HasPrefix(r.Content, "Error: ")
	}
	return r.IsError
}
