package agent

import (
	"context"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// TestRefusedBy: a rejected call records who refused it, stored and on
// its card, so the window can tell the user's own "no" from a refusal
// nobody was asked about: plan mode, the approval mode none, a deny rule
// (named), present_plan outside plan mode, and the user.
func TestRefusedBy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, mode string
		call       fakellm.ToolCall
		deny       *store.Rule
		reject     bool
		by, rule   string
	}{
		{name: "plan mode", mode: "plan", call: toolCall("w1", "write_file", `{"path":"a.txt","content":"x"}`), by: store.RefusedPlan},
		{name: "mode none", mode: "none", call: toolCall("b1", "run_bash", `{"command":"echo hi"}`), by: store.RefusedMode},
		{name: "present_plan outside plan mode", mode: "ask", call: toolCall("p1", "present_plan", `{"plan":"x","steps":["a"]}`), by: store.RefusedMode},
		{name: "deny rule", mode: "all", call: toolCall("b2", "run_bash", `{"command":"rm -rf build"}`),
			deny: &store.Rule{Tool: permission.BashTool, Pattern: "rm *", Effect: store.Deny}, by: store.RefusedRule, rule: `run_bash "rm *"`},
		{name: "the user", mode: "ask", call: toolCall("b3", "run_bash", `{"command":"echo hi"}`), reject: true, by: store.RefusedUser},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{c.call}},
				{Text: "Understood.", When: &fakellm.When{HasToolResult: true}},
			}}, setup{mode: c.mode})
			ctx := context.Background()
			if c.deny != nil {
				c.deny.ProjectID = h.sess.ProjectID
				if _, err := h.st.Rules.Add(ctx, *c.deny); err != nil {
					t.Fatal(err)
				}
			}
			h.approveWith(func(a wire.Approval) {
				if !c.reject {
					t.Errorf("asked: %+v", a)
				}
				h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: false})
			})
			h.turn("go")
			calls, err := h.st.ToolCalls.List(ctx, h.sess.ID)
			if err != nil || len(calls) != 1 {
				t.Fatalf("calls %+v %v", calls, err)
			}
			want := c.by
			if c.rule != "" {
				want += " " + c.rule
			}
			if got := calls[0]; got.Status != wire.ToolRejected || got.RefusedBy != want {
				t.Errorf("stored %s refused by %q, want rejected by %q", got.Status, got.RefusedBy, want)
			}
			var last wire.ToolCall
			for _, e := range h.rec.events(wire.AgentTool) {
				last = e.(wire.ToolPayload).Call
			}
			if last.Status != "rejected" || string(last.RefusedBy) != c.by || last.RefusedRule != c.rule {
				t.Errorf("card %s refusedBy %q rule %q, want rejected, %q, %q", last.Status, last.RefusedBy, last.RefusedRule, c.by, c.rule)
			}
		})
	}
}
