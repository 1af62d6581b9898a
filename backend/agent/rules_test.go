package agent

import (
	"slices"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// "Always allow" shows the rules it adds on the approval, and a rule that
// could no longer match when the user chose it (its MCP server went away
// while the card waited: the tool is unknown) is not stored; the user is
// told in a notice. The old addRules stored whatever it was given and
// only logged a failure.
func TestAlwaysAllowStoresOnlyValidRulesAndSaysSo(t *testing.T) {
	t.Parallel()
	srv := &fakeMCP{}
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("a", "mcp__t__echo", `{"text": "hi"}`)}},
		{Text: "Done."},
	}}, setup{mcp: srv})
	var asked []wire.Approval
	h.approveWith(func(a wire.Approval) {
		asked = append(asked, a)
		srv.mu.Lock()
		srv.down = true
		srv.mu.Unlock()
		h.m.Approvals().DecideCommand(a.ID, wire.CommandDecision{Approve: true, AlwaysAllow: true})
	})
	if r := h.turn("echo"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if len(asked) != 1 || !slices.Equal(asked[0].AlwaysRules, []string{`allow mcp__t__echo "*"`}) {
		t.Fatalf("asked %+v", asked)
	}
	if rs, _ := h.st.Rules.List(t.Context(), h.sess.ProjectID); len(rs) != 0 {
		t.Errorf("stored %+v", rs)
	}
	ns := h.rec.notices("rule")
	if len(ns) != 1 || !strings.Contains(ns[0], `"mcp__t__echo"`) || !strings.Contains(ns[0], "asked again") {
		t.Errorf("notices %q", ns)
	}
}
