package gate

import (
	"strings"
	"testing"

	"pilot/backend/permission"
	"pilot/backend/wire"
)

// TestJudgeRemember: a line for the user's own instructions is asked in
// ask and edits modes, whatever allow rules or a hook say; it runs in
// mode all; a deny rule, plan mode and mode none refuse it.
func TestJudgeRemember(t *testing.T) {
	t.Parallel()
	call := Call{Tool: RememberTool, Paths: []string{"~/.claude/CLAUDE.md"}}
	allowAll := []permission.Rule{{Tool: permission.Edits, Pattern: "**", Effect: permission.Allow}, {Tool: RememberTool, Pattern: "**", Effect: permission.Allow}}
	deny := []permission.Rule{{Tool: RememberTool, Pattern: "**", Effect: permission.Deny}}
	hooked := call
	hooked.Hook = wire.HookAllow
	tests := []struct {
		name  string
		mode  permission.Mode
		rules []permission.Rule
		call  Call
		want  Verdict
		says  string
	}{
		{"ask", permission.ModeAsk, nil, call, Ask, ""},
		{"edits", permission.ModeEdits, nil, call, Ask, ""},
		{"allow rules", permission.ModeEdits, allowAll, call, Ask, ""},
		{"a hook's allow", permission.ModeAsk, nil, hooked, Ask, ""},
		{"all", permission.ModeAll, nil, call, Run, ""},
		{"deny rule", permission.ModeAll, deny, call, Refuse, "deny remember"},
		{"plan", permission.ModePlan, nil, call, Refuse, "plan mode"},
		{"none", permission.ModeNone, nil, call, Refuse, "approval mode none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := Judge(tc.mode, tc.rules, tc.call)
			if d.Verdict != tc.want || !strings.Contains(d.Reason, tc.says) {
				t.Errorf("verdict %v (%q), want %v saying %q", d.Verdict, d.Reason, tc.want, tc.says)
			}
			if d.Verdict == Ask && (d.Kind != wire.ApprovalChange || d.NoAlways == "" || len(d.Always) > 0) {
				t.Errorf("the question: %+v", d)
			}
		})
	}
}
