package gate

import (
	"strings"
	"testing"

	"pilot/backend/permission"
	"pilot/backend/wire"
)

// TestJudgeSandbox is the matrix of run_bash under the OS sandbox: every
// mode, ready or not, sandbox: false with and without a reason, rules.
func TestJudgeSandbox(t *testing.T) {
	t.Parallel()
	rules := []permission.Rule{
		rule(permission.Allow, "run_bash", "go test *"),
		rule(permission.Deny, "run_bash", "rm *"),
	}
	const (
		plan, ask, edits, all, none = permission.ModePlan, permission.ModeAsk, permission.ModeEdits, permission.ModeAll, permission.ModeNone
		command, outside            = wire.ApprovalCommand, wire.ApprovalOutsideSandbox
	)
	ready := func(cmd string) Call { return Call{Tool: "run_bash", Command: cmd, SandboxReady: true} }
	notReady := func(cmd string) Call { return Call{Tool: "run_bash", Command: cmd} }
	out := func(c Call, reason string) Call { c.Unsandboxed, c.Reason = true, reason; return c }
	readOnly := func(c Call) Call { c.ReadOnly = true; return c }
	cases := []struct {
		name      string
		mode      permission.Mode
		call      Call
		verdict   Verdict
		kind      wire.ApprovalKind
		sandboxed bool
	}{
		// A deny rule refuses in every mode, sandboxed or not.
		{"deny, all, ready", all, ready("rm -rf x"), Refuse, "", false},
		{"deny, edits, ready", edits, ready("rm -rf x"), Refuse, "", false},
		{"deny, all, outside", all, out(ready("rm -rf x"), "cleanup"), Refuse, "", false},
		{"deny, edits, not ready", edits, notReady("rm -rf x"), Refuse, "", false},
		// none refuses every command.
		{"none, ready", none, ready("make"), Refuse, "", false},
		{"none, allowed, ready", none, ready("go test ./..."), Refuse, "", false},
		{"none, outside", none, out(ready("make"), "needs ~/.cache"), Refuse, "", false},
		// plan runs only read-only commands, sandboxed where it can.
		{"plan refuses a command", plan, ready("make"), Refuse, "", false},
		{"plan refuses an allowed command", plan, ready("go test ./..."), Refuse, "", false},
		{"plan runs a read-only command sandboxed", plan, readOnly(ready("ls")), Run, "", true},
		{"plan runs a read-only command, no sandbox", plan, readOnly(notReady("ls")), Run, "", false},
		{"plan refuses outside", plan, out(readOnly(ready("ls")), "why"), Refuse, "", false},
		// Ready: edits and all run sandboxed, ask asks then sandboxes.
		{"edits runs sandboxed without asking", edits, ready("make"), Run, "", true},
		{"all runs sandboxed", all, ready("make"), Run, "", true},
		{"an allow rule runs sandboxed in ask", ask, ready("go test ./..."), Run, "", true},
		{"an allow rule runs sandboxed in edits", edits, ready("go test ./..."), Run, "", true},
		{"a read-only command runs sandboxed in ask", ask, readOnly(ready("ls")), Run, "", true},
		{"ask asks, then sandboxed", ask, ready("make"), Ask, command, true},
		// Not ready: exactly as before the sandbox.
		{"not ready, edits asks", edits, notReady("make"), Ask, command, false},
		{"not ready, ask asks", ask, notReady("make"), Ask, command, false},
		{"not ready, all runs", all, notReady("make"), Run, "", false},
		{"not ready, an allow rule runs", ask, notReady("go test ./..."), Run, "", false},
		// sandbox: false: all runs outside, every other mode asks.
		{"outside, all runs unsandboxed", all, out(ready("make"), "needs ~/.cache"), Run, "", false},
		{"outside, edits asks", edits, out(ready("make"), "needs ~/.cache"), Ask, outside, false},
		{"outside, ask asks", ask, out(ready("make"), "needs ~/.cache"), Ask, outside, false},
		{"outside, an allow rule still asks", ask, out(ready("go test ./..."), "needs docker"), Ask, outside, false},
		{"outside, not ready, edits asks", edits, out(notReady("make"), "x"), Ask, outside, false},
		{"outside without a reason is refused", all, out(ready("make"), ""), Refuse, "", false},
		{"outside without a reason, edits", edits, out(ready("make"), ""), Refuse, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := Judge(c.mode, rules, c.call)
			if d.Verdict != c.verdict || d.Kind != c.kind || d.Sandboxed != c.sandboxed {
				t.Fatalf("got verdict %d kind %q sandboxed %v (%q), want %d %q %v", d.Verdict, d.Kind, d.Sandboxed, d.Reason, c.verdict, c.kind, c.sandboxed)
			}
			if d.Verdict == Refuse && !strings.HasPrefix(d.Reason, "Not ") {
				t.Errorf("the refusal is not a sentence for the model: %q", d.Reason)
			}
			if d.Kind == outside && (len(d.Always) != 0 || d.NoAlways != NoAlwaysOutside) {
				t.Errorf("outside the sandbox offers always %v, noAlways %q", d.Always, d.NoAlways)
			}
		})
	}
}

// TestJudgeNetwork is the matrix of a sandboxed command's connection.
func TestJudgeNetwork(t *testing.T) {
	t.Parallel()
	rules := []permission.Rule{
		rule(permission.Deny, NetworkTool, "evil.example"),
		rule(permission.Allow, NetworkTool, "*.example.org"),
		rule(permission.Allow, NetworkTool, "localhost"),
		rule(permission.Allow, "web_fetch", "fetch-only.example"), // web_fetch's rules are not the network's
	}
	net := func(h string, yes bool) Call { return Call{Tool: NetworkTool, Host: h, HostApproved: yes} }
	cases := []struct {
		name    string
		mode    permission.Mode
		call    Call
		verdict Verdict
		kind    wire.ApprovalKind
		private bool
	}{
		{"a deny rule refuses in all", permission.ModeAll, net("evil.example", true), Refuse, "", false},
		{"an allow rule runs", permission.ModeAsk, net("a.example.org", false), Run, "", false},
		{"mode all runs", permission.ModeAll, net("example.com", false), Run, "", false},
		{"an earlier yes runs", permission.ModeEdits, net("example.com", true), Run, "", false},
		{"a new host asks in edits", permission.ModeEdits, net("example.com", false), Ask, wire.ApprovalNetwork, false},
		{"a new host asks in ask", permission.ModeAsk, net("example.com", false), Ask, wire.ApprovalNetwork, false},
		{"a web_fetch rule does not open the network", permission.ModeEdits, net("fetch-only.example", false), Ask, wire.ApprovalNetwork, false},
		{"none refuses", permission.ModeNone, net("example.com", false), Refuse, "", false},
		{"a rule naming the host opens a private address", permission.ModeAsk, net("localhost", false), Run, "", true},
		{"a wildcard opens no private address", permission.ModeAsk, net("x.example.org", false), Run, "", false},
		{"mode all opens no private address", permission.ModeAll, net("127.0.0.1", false), Run, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := Judge(c.mode, rules, c.call)
			if d.Verdict != c.verdict || d.Kind != c.kind || d.Private != c.private {
				t.Fatalf("got %+v, want verdict %d kind %q private %v", d, c.verdict, c.kind, c.private)
			}
			if d.Verdict == Refuse && (!strings.Contains(d.Reason, c.call.Host) || !strings.Contains(d.Reason, "sandbox")) {
				t.Errorf("the refusal does not name the host and the sandbox: %q", d.Reason)
			}
			if d.Rule != nil && d.Rule.Tool != NetworkTool {
				t.Errorf("the deciding rule is %s, not a network rule", d.Rule)
			}
			if d.Verdict == Ask {
				want := []string{`allow network "` + c.call.Host + `"`}
				if got := permission.RuleStrings(d.Always); len(got) != 1 || got[0] != want[0] {
					t.Errorf("always %q, want %q", got, want)
				}
				if again := Judge(c.mode, d.Always, c.call); again.Verdict != Run {
					t.Errorf("the rule shown does not let the connection through next time: %+v", again)
				}
			}
		})
	}
}
