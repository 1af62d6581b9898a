package gate

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/permission"
	"pilot/backend/wire"
)

func rule(effect permission.Effect, tool, pattern string) permission.Rule {
	return permission.Rule{Tool: tool, Pattern: pattern, Effect: effect}
}

func TestJudge(t *testing.T) {
	t.Parallel()
	const (
		allow = permission.Allow
		deny  = permission.Deny
	)
	rules := []permission.Rule{
		rule(deny, "read_file", ".env"),
		rule(deny, "grep", "secret/**"),
		rule(deny, "list_files", "secret"),
		rule(allow, "run_bash", "go test *"),
		rule(deny, "web_fetch", "evil.example"),
		rule(allow, "web_fetch", "*.example.org"),
		rule(allow, "web_fetch", "localhost"),
		rule(allow, "mcp__srv", "echo"),
		rule(allow, "web_search", "api.search.brave.com"),
		rule(deny, "web_search", "api.tavily.com"),
	}
	read := func(tool string, paths ...string) Call { return Call{Tool: tool, ReadOnly: true, Paths: paths} }
	bash := func(c string) Call { return Call{Tool: "run_bash", Command: c} }
	fetch := func(h string, approved bool) Call {
		return Call{Tool: "web_fetch", ReadOnly: true, Host: h, HostApproved: approved}
	}
	search := func(h string, approved bool) Call {
		return Call{Tool: "web_search", ReadOnly: true, Host: h, HostApproved: approved}
	}
	cases := []struct {
		name    string
		mode    permission.Mode
		call    Call
		verdict Verdict
		kind    wire.ApprovalKind
		private bool
	}{
		{"a deny rule on read_file denies", permission.ModeAll, read("read_file", ".env"), Refuse, "", false},
		{"a deny rule on grep denies its folder", permission.ModeAsk, read("grep", "secret/keys"), Refuse, "", false},
		{"a deny rule on list_files denies", permission.ModeNone, read("list_files", "secret"), Refuse, "", false},
		{"a read with no rule runs, even under none", permission.ModeNone, read("read_file", "main.go"), Run, "", false},
		{"a read runs in plan mode", permission.ModePlan, read("glob", "."), Run, "", false},
		{"plan mode refuses a change whatever the rules", permission.ModePlan, Call{Tool: "write_file", Paths: []string{"a"}}, Refuse, "", false},
		{"plan mode refuses an allowed command", permission.ModePlan, bash("go test ./..."), Refuse, "", false},
		{"present_plan outside plan mode is refused", permission.ModeAsk, Call{Tool: PresentPlanTool, ReadOnly: true}, Refuse, "", false},
		{"present_plan in plan mode runs", permission.ModePlan, Call{Tool: PresentPlanTool, ReadOnly: true}, Run, "", false},
		{"ask asks a change", permission.ModeAsk, Call{Tool: "patch_file", Paths: []string{"a.go"}}, Ask, wire.ApprovalChange, false},
		{"edits runs a change", permission.ModeEdits, Call{Tool: "patch_file", Paths: []string{"a.go"}}, Run, "", false},
		{"ask asks a command", permission.ModeAsk, bash("make"), Ask, wire.ApprovalCommand, false},
		{"an allow rule runs a command", permission.ModeAsk, bash("go test ./..."), Run, "", false},
		{"none refuses a command", permission.ModeNone, bash("make"), Refuse, "", false},
		{"an MCP call asks with its kind", permission.ModeEdits, Call{Tool: "mcp__srv__other", Server: "srv", MCPTool: "other"}, Ask, wire.ApprovalMCP, false},
		{"an MCP rule runs", permission.ModeAsk, Call{Tool: "mcp__srv__echo", Server: "srv", MCPTool: "echo"}, Run, "", false},
		{"a new host asks with the fetch kind", permission.ModeAsk, fetch("example.com", false), Ask, wire.ApprovalFetch, false},
		{"a host asked in plan mode", permission.ModePlan, fetch("example.com", false), Ask, wire.ApprovalFetch, false},
		{"a host approved in the session runs", permission.ModeAsk, fetch("example.com", true), Run, "", false},
		{"none refuses a host approved earlier", permission.ModeNone, fetch("example.com", true), Refuse, "", false},
		{"deny beats a host approved earlier", permission.ModeAll, fetch("evil.example", true), Refuse, "", false},
		{"a wildcard rule runs but opens no private address", permission.ModeAsk, fetch("a.example.org", false), Run, "", false},
		{"a rule naming the host opens a private address", permission.ModeAsk, fetch("localhost", false), Run, "", true},
		{"mode all fetches, no private address", permission.ModeAll, fetch("127.0.0.1", false), Run, "", false},
		{"a search asks with the fetch kind, even in edits", permission.ModeEdits, search("search.example.net", false), Ask, wire.ApprovalFetch, false},
		{"a search is asked in plan mode", permission.ModePlan, search("search.example.net", false), Ask, wire.ApprovalFetch, false},
		{"a search service allowed in the session runs", permission.ModeAsk, search("search.example.net", true), Run, "", false},
		{"a search rule runs", permission.ModeAsk, search("api.search.brave.com", false), Run, "", false},
		{"a search deny rule refuses, even approved", permission.ModeAll, search("api.tavily.com", true), Refuse, "", false},
		{"none refuses a search", permission.ModeNone, search("search.example.net", true), Refuse, "", false},
		{"a web_fetch rule does not allow a search", permission.ModeAsk, search("localhost", false), Ask, wire.ApprovalFetch, false},
		{"the budget asks, even in mode all", permission.ModeAll, Call{Budget: true}, Ask, wire.ApprovalBudget, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := Judge(c.mode, rules, c.call)
			if d.Verdict != c.verdict || d.Kind != c.kind || d.Private != c.private {
				t.Errorf("got %+v, want verdict %d kind %q private %v", d, c.verdict, c.kind, c.private)
			}
			if d.Verdict == Refuse && !strings.HasPrefix(d.Reason, "Not ") {
				t.Errorf("the refusal is not a sentence for the model: %q", d.Reason)
			}
		})
	}
}

// "Always allow" is offered with exactly the rules it adds, and only when
// they would let the same call run next time.
func TestAlways(t *testing.T) {
	t.Parallel()
	cases := []struct {
		call     Call
		want     []string
		noAlways bool
	}{
		{Call{Tool: "run_bash", Command: "make build"}, []string{`allow run_bash "make build"`}, false},
		// A substitution is judged as its own command: the exact line and
		// what it runs, each allowed exactly.
		{Call{Tool: "run_bash", Command: "cat $(ls)"}, []string{`allow run_bash "cat $(ls)"`, `allow run_bash "ls"`}, false},
		{Call{Tool: "run_bash", Command: "echo `id`"}, []string{"allow run_bash \"echo `id`\"", `allow run_bash "id"`}, false},
		// Code built at run time can never be allowed by a rule.
		{Call{Tool: "run_bash", Command: `eval "$CMD"`}, nil, true},
		{Call{Tool: "run_bash", Command: `sh -c "make $T"`}, nil, true},
		{Call{Tool: "write_file", Paths: []string{"a.go", "b/c.go"}}, []string{`allow edits "a.go"`, `allow edits "b/c.go"`}, false},
		{Call{Tool: "web_fetch", Host: "pkg.go.dev"}, []string{`allow web_fetch "pkg.go.dev"`}, false},
		{Call{Tool: "web_search", ReadOnly: true, Host: "api.search.brave.com"}, []string{`allow web_search "api.search.brave.com"`}, false},
		{Call{Tool: "mcp__s__t", Server: "s", MCPTool: "t"}, []string{`allow mcp__s__t "*"`}, false},
	}
	for _, c := range cases {
		d := Judge(permission.ModeAsk, nil, c.call)
		if d.Verdict != Ask {
			t.Fatalf("%+v: verdict %d", c.call, d.Verdict)
		}
		if got := permission.RuleStrings(d.Always); !reflect.DeepEqual(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%+v: always %q, want %q", c.call, got, c.want)
		}
		if (d.NoAlways != "") != c.noAlways {
			t.Errorf("%+v: noAlways %q", c.call, d.NoAlways)
		}
		if len(d.Always) > 0 {
			if again := Judge(permission.ModeAsk, d.Always, c.call); again.Verdict != Run {
				t.Errorf("%+v: the rules shown do not allow the call next time: %+v", c.call, again)
			}
		}
	}
}

// BenchmarkGate is the gate's cost per tool call: a compound command
// judged against 20 rules (target: at most 50 µs per call).
// BenchmarkGate judges a compound command against 20 rules, "always
// allow" included: Gate is a command judged again (the parse is kept),
// GateNewCommand a command never seen before (every call parses).
func BenchmarkGate(b *testing.B) {
	rules := benchRules()
	call := Call{Tool: "run_bash", Command: "go build ./... && go vet ./... 2>&1 | tee build.log && go test -race ./backend/..."}
	b.ReportAllocs()
	for b.Loop() {
		if d := Judge(permission.ModeAsk, rules, call); d.Verdict != Ask {
			b.Fatalf("verdict %d", d.Verdict)
		}
	}
}

func BenchmarkGateNewCommand(b *testing.B) {
	rules := benchRules()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		call := Call{Tool: "run_bash", Command: fmt.Sprintf("go build ./... && go vet ./... 2>&1 | tee build%d.log && go test -race ./backend/...", n)}
		if d := Judge(permission.ModeAsk, rules, call); d.Verdict != Ask {
			b.Fatalf("verdict %d", d.Verdict)
		}
	}
}

func benchRules() []permission.Rule {
	var rules []permission.Rule
	for _, p := range []string{"go test *", "go vet *", "go build *", "make *", "npm run *", "git status*", "git diff*", "git log*", "ls *", "cat *"} {
		rules = append(rules, rule(permission.Allow, "run_bash", p))
	}
	for _, p := range []string{"rm -rf *", "git push*", "curl *", "sudo *"} {
		rules = append(rules, rule(permission.Deny, "run_bash", p))
	}
	rules = append(rules, rule(permission.Allow, "edits", "src/**"), rule(permission.Allow, "edits", "docs/**"),
		rule(permission.Deny, "read_file", ".env"), rule(permission.Deny, "grep", "secret/**"),
		rule(permission.Allow, "web_fetch", "*.github.com"), rule(permission.Allow, "web_fetch", "pkg.go.dev"))
	return rules
}

// FuzzAlways: for any command, the rules "always allow" shows let that
// command run next time, and a command offered none says why.
func FuzzAlways(f *testing.F) {
	for _, s := range []string{"make build", "go build ./... && go test ./...", "cat $(ls)", "echo `id`", "cd sub && make", "a | b; c & d\ne", "rm [x", "echo '*'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := Judge(permission.ModeAsk, nil, Call{Tool: "run_bash", Command: cmd})
		if d.Verdict != Ask {
			t.Fatalf("%q: verdict %d without rules", cmd, d.Verdict)
		}
		if len(d.Always) == 0 {
			if d.NoAlways == "" {
				t.Fatalf("%q: no rules and no reason", cmd)
			}
			return
		}
		if again := Judge(permission.ModeAsk, d.Always, Call{Tool: "run_bash", Command: cmd}); again.Verdict != Run {
			t.Fatalf("%q: the rules shown %q do not allow it", cmd, permission.RuleStrings(d.Always))
		}
	})
}

func TestHookSay(t *testing.T) {
	t.Parallel()
	deny := []permission.Rule{{Tool: permission.BashTool, Pattern: "rm *", Effect: permission.Deny}}
	cases := []struct {
		name  string
		mode  permission.Mode
		rules []permission.Rule
		c     Call
		want  Verdict
	}{
		{"allow skips the ask", permission.ModeAsk, nil, Call{Tool: permission.BashTool, Command: "make", Hook: wire.HookAllow}, Run},
		{"allow never beats a deny rule", permission.ModeAll, deny, Call{Tool: permission.BashTool, Command: "rm -rf x", Hook: wire.HookAllow}, Refuse},
		{"allow never lets a command out of the sandbox", permission.ModeAsk, nil, Call{Tool: permission.BashTool, Command: "make", Unsandboxed: true, Reason: "needs the network", Hook: wire.HookAllow}, Ask},
		{"allow never beats plan mode", permission.ModePlan, nil, Call{Tool: "write_file", Paths: []string{"a"}, Hook: wire.HookAllow}, Refuse},
		{"ask asks in mode all", permission.ModeAll, nil, Call{Tool: "write_file", Paths: []string{"a"}, Hook: wire.HookAsk}, Ask},
		{"ask asks for a read", permission.ModeAsk, nil, Call{Tool: "read_file", ReadOnly: true, Paths: []string{"a"}, Hook: wire.HookAsk}, Ask},
		{"none changes nothing", permission.ModeAsk, nil, Call{Tool: "read_file", ReadOnly: true, Paths: []string{"a"}, Hook: wire.HookNone}, Run},
	}
	for _, c := range cases {
		if d := Judge(c.mode, c.rules, c.c); d.Verdict != c.want {
			t.Errorf("%s: verdict %v (%s), want %v", c.name, d.Verdict, d.Reason, c.want)
		}
	}
}
