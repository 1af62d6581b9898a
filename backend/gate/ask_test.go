package gate

import (
	"strings"
	"testing"

	"pilot/backend/permission"
	"pilot/backend/wire"
)

// TestAskRules: an ask rule (from a settings file's permissions.ask) asks
// every time: over allow rules, the modes edits and all, the sandbox, and
// the session's earlier yes to a host; none refuses, plan still refuses
// changes, deny still beats it; "always allow" is never offered.
func TestAskRules(t *testing.T) {
	t.Parallel()
	ask, allow, deny := permission.Ask, permission.Allow, permission.Deny
	rules := []permission.Rule{
		rule(ask, "run_bash", "git push *"),
		rule(allow, "run_bash", "git *"),
		rule(ask, "read_file", "secrets/**"),
		rule(ask, "edits", "migrations/**"),
		rule(allow, "edits", "**"),
		rule(ask, "web_fetch", "example.com"),
		rule(deny, "run_bash", "git push --force *"),
	}
	bash := func(c string) Call { return Call{Tool: "run_bash", Command: c, SandboxReady: true} }
	cases := []struct {
		name    string
		mode    permission.Mode
		call    Call
		verdict Verdict
		kind    wire.ApprovalKind
	}{
		{"an ask rule beats an allow rule", permission.ModeAsk, bash("git push origin main"), Ask, wire.ApprovalCommand},
		{"the allow rule still runs the rest", permission.ModeAsk, bash("git status"), Run, ""},
		{"an ask rule asks in mode all", permission.ModeAll, bash("git push origin main"), Ask, wire.ApprovalCommand},
		{"an ask rule asks in edits mode, sandbox or not", permission.ModeEdits, bash("git push origin main"), Ask, wire.ApprovalCommand},
		{"an ask rule on part of a line asks", permission.ModeAll, bash("make && git push origin"), Ask, wire.ApprovalCommand},
		{"deny beats ask", permission.ModeAll, bash("git push --force origin"), Refuse, ""},
		{"none refuses what an ask rule asks", permission.ModeNone, bash("git push origin"), Refuse, ""},
		{"an ask rule asks before a read", permission.ModeAsk, Call{Tool: "read_file", ReadOnly: true, Paths: []string{"secrets/k"}}, Ask, wire.ApprovalCommand},
		{"an ask rule asks before a read in plan mode", permission.ModePlan, Call{Tool: "read_file", ReadOnly: true, Paths: []string{"secrets/k"}}, Ask, wire.ApprovalCommand},
		{"an ask rule asks a change the edits mode would apply", permission.ModeEdits, Call{Tool: "patch_file", Paths: []string{"migrations/1.sql"}}, Ask, wire.ApprovalChange},
		{"plan mode still refuses that change", permission.ModePlan, Call{Tool: "patch_file", Paths: []string{"migrations/1.sql"}}, Refuse, ""},
		{"an earlier yes to the host does not skip an ask rule", permission.ModeAsk, Call{Tool: "web_fetch", ReadOnly: true, Host: "example.com", HostApproved: true}, Ask, wire.ApprovalFetch},
		{"outside the sandbox in mode all still asks", permission.ModeAll, Call{Tool: "run_bash", Command: "git push x", Unsandboxed: true, Reason: "needs my ssh agent"}, Ask, wire.ApprovalOutsideSandbox},
	}
	for _, c := range cases {
		d := Judge(c.mode, rules, c.call)
		if d.Verdict != c.verdict || d.Kind != c.kind {
			t.Errorf("%s: %v %q (%s), want %v %q", c.name, d.Verdict, d.Kind, d.Reason, c.verdict, c.kind)
		}
		if d.Verdict == Ask && c.kind != wire.ApprovalOutsideSandbox {
			if len(d.Always) != 0 || !strings.Contains(d.NoAlways, "asks every time") {
				t.Errorf("%s: always %v, no-always %q: an ask rule offers no \"always allow\"", c.name, d.Always, d.NoAlways)
			}
		}
		if c.name == "none refuses what an ask rule asks" && !strings.Contains(d.Reason, "no one can answer") {
			t.Errorf("%s: reason %q does not say why", c.name, d.Reason)
		}
	}
}
