package permission

import (
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	bash := func(c string) Request { return Request{Tool: BashTool, Command: c} }
	edit := func(paths ...string) Request { return Request{Tool: "patch_file", Paths: paths} }
	read := Request{Tool: "read_file", ReadOnly: true, Paths: []string{".env"}}
	rules := []Rule{
		{Tool: BashTool, Pattern: "go test *", Effect: Allow},
		{Tool: BashTool, Pattern: "go vet *", Effect: Allow},
		{Tool: BashTool, Pattern: "git push*", Effect: Deny},
		{Tool: BashTool, Pattern: "git *", Effect: Allow},
		{Tool: Edits, Pattern: "docs/**", Effect: Allow},
		{Tool: "write_file", Pattern: "docs/secret/**", Effect: Deny},
		{Tool: "read_file", Pattern: ".env", Effect: Deny},
	}
	cases := []struct {
		name string
		mode Mode
		req  Request
		want Verdict
	}{
		{"read-only never asks", ModeAsk, Request{Tool: "grep", ReadOnly: true}, Run},
		{"read-only under none", ModeNone, Request{Tool: "list_files", ReadOnly: true}, Run},
		{"deny rule on a read", ModeAll, read, Refuse},
		{"ask mode asks for a command", ModeAsk, bash("ls"), AskUser},
		{"ask mode asks for an edit", ModeAsk, edit("main.go"), AskUser},
		{"edits mode applies edits", ModeEdits, edit("main.go"), Run},
		{"edits mode asks commands", ModeEdits, bash("make"), AskUser},
		{"all runs commands", ModeAll, bash("make"), Run},
		{"none refuses", ModeNone, edit("main.go"), Refuse},
		{"allow rule", ModeAsk, bash("go test ./..."), Run},
		{"allow rule with redirection", ModeAsk, bash("go test ./... 2>&1"), Run},
		{"allow every part", ModeAsk, bash("go test ./... && go vet ./..."), Run},
		{"one part not allowed", ModeAsk, bash("go test ./... && rm -rf /"), AskUser},
		{"substitution never allowed by rule", ModeAsk, bash("go test $(rm -rf x)"), AskUser},
		{"deny beats allow", ModeAsk, bash("git push origin main"), Refuse},
		{"deny beats mode all", ModeAll, bash("git push"), Refuse},
		{"deny hidden in a chain", ModeAll, bash("make && git push --force"), Refuse},
		{"allow under git", ModeAsk, bash("git status"), Run},
		{"edits rule under docs", ModeAsk, edit("docs/a/b.md"), Run},
		{"edits rule needs every path", ModeAsk, edit("docs/a.md", "main.go"), AskUser},
		{"deny on write_file wins", ModeAsk, Request{Tool: "write_file", Paths: []string{"docs/secret/k.md"}}, Refuse},
		{"deny on write_file not patch_file", ModeAsk, edit("docs/secret/k.md"), Run},
		{"edits rule is not a command rule", ModeAsk, bash("docs/run.sh"), AskUser},
		{"plan runs reads", ModePlan, Request{Tool: "grep", ReadOnly: true}, Run},
		{"plan refuses an edit", ModePlan, edit("main.go"), Refuse},
		{"plan refuses a command", ModePlan, bash("make"), Refuse},
		{"plan refuses what an allow rule allows", ModePlan, bash("go test ./..."), Refuse},
		{"plan refuses an allowed edit", ModePlan, edit("docs/a.md"), Refuse},
		{"deny still names its rule in plan", ModePlan, bash("git push"), Refuse},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Check(c.mode, rules, c.req); got.Verdict != c.want {
				t.Errorf("got %v (%s), want %v", got.Verdict, got.Reason, c.want)
			}
		})
	}
}

func TestDecisionNamesRule(t *testing.T) {
	t.Parallel()
	rules := []Rule{{Tool: BashTool, Pattern: "git *", Effect: Allow}, {Tool: BashTool, Pattern: "git push*", Effect: Deny}}
	d := Check(ModeAsk, rules, Request{Tool: BashTool, Command: "git push"})
	if d.Rule == nil || *d.Rule != rules[1] || d.Reason != `denied by the rule deny run_bash "git push*"` {
		t.Errorf("%+v", d)
	}
}

func TestAlwaysAllowMatchesOnlyItself(t *testing.T) {
	t.Parallel()
	req := Request{Tool: BashTool, Command: "ls *.go [a]"}
	rules := AlwaysAllow(req)
	if len(rules) != 1 || Check(ModeAsk, rules, req).Verdict != Run {
		t.Fatalf("%+v", rules)
	}
	if Check(ModeAsk, rules, Request{Tool: BashTool, Command: "ls x.go a"}).Verdict != AskUser {
		t.Error("escaped rule matched another command")
	}
	er := AlwaysAllow(Request{Tool: "multi_patch", Paths: []string{"a/*.go", "b.go"}})
	want := []Rule{{Tool: Edits, Pattern: `a/\*.go`, Effect: Allow}, {Tool: Edits, Pattern: "b.go", Effect: Allow}}
	if !reflect.DeepEqual(er, want) {
		t.Errorf("%+v", er)
	}
	if Check(ModeAsk, er, Request{Tool: "write_file", Paths: []string{"a/x.go"}}).Verdict != AskUser {
		t.Error("escaped path rule matched another path")
	}
}

func TestParseModeAndValidate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Mode{"": ModeAsk, "ASK": ModeAsk, "edits": ModeEdits, "all": ModeAll, "none": ModeNone, "Plan": ModePlan} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseMode("yes"); err == nil {
		t.Error("yes accepted")
	}
	bad := []Rule{{Tool: "x", Pattern: "a", Effect: "maybe"}, {Pattern: "a", Effect: Allow}, {Tool: "x", Effect: Allow}, {Tool: "x", Pattern: "a[", Effect: Deny}}
	for _, r := range bad {
		if Validate(r, Known([]string{"x"}, nil)) == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	if err := Validate(Rule{Tool: Edits, Pattern: "docs/**", Effect: Allow}, Known(nil, nil)); err != nil {
		t.Error(err)
	}
}

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	got := splitCommand("a; b && c || d | e &>x\nf 2>&1 & g")
	want := []string{"a", "b", "c", "d", "e &>x", "f 2>&1", "g"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q", got)
	}
}

func TestCheckMCP(t *testing.T) {
	t.Parallel()
	call := func(server, tool string) Request {
		return Request{Tool: MCPPrefix + server + "__" + tool, Server: server, MCPTool: tool}
	}
	rules := []Rule{
		{Tool: "mcp__gh__list_issues", Pattern: "*", Effect: Allow},
		{Tool: "mcp__fs", Pattern: "read_*", Effect: Allow},
		{Tool: "mcp__fs", Pattern: "read_secret", Effect: Deny},
		{Tool: Edits, Pattern: "**", Effect: Allow},
		{Tool: BashTool, Pattern: "*", Effect: Allow},
	}
	cases := []struct {
		name string
		mode Mode
		req  Request
		want Verdict
	}{
		{"asks by default", ModeAsk, call("gh", "create_issue"), AskUser},
		{"edits mode asks", ModeEdits, call("gh", "create_issue"), AskUser},
		{"all runs", ModeAll, call("gh", "create_issue"), Run},
		{"none refuses", ModeNone, call("gh", "create_issue"), Refuse},
		{"tool rule allows", ModeAsk, call("gh", "list_issues"), Run},
		{"tool rule allows under none", ModeNone, call("gh", "list_issues"), Run},
		{"plan refuses an allowed tool", ModePlan, call("gh", "list_issues"), Refuse},
		{"server rule allows", ModeAsk, call("fs", "read_file"), Run},
		{"server rule pattern", ModeAsk, call("fs", "write_file"), AskUser},
		{"deny beats allow", ModeAll, call("fs", "read_secret"), Refuse},
		{"edits and bash rules do not apply", ModeAsk, call("other", "x"), AskUser},
	}
	for _, c := range cases {
		if got := Check(c.mode, rules, c.req).Verdict; got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	if got := AlwaysAllow(call("gh", "create_issue")); !reflect.DeepEqual(got, []Rule{{Tool: "mcp__gh__create_issue", Pattern: "*", Effect: Allow}}) {
		t.Errorf("always allow: %v", got)
	}
}

// "Always allow" on a compound command adds a rule per part, so the same
// command runs next time (the old AlwaysAllow stored the whole line as one
// rule, which the matcher, needing every part allowed, never used).
func TestAlwaysAllowCompoundCommandMatchesNextTime(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"go build ./... && go test ./...", "cd sub && make", "make; make"} {
		req := Request{Tool: BashTool, Command: cmd}
		rs := AlwaysAllow(req)
		if len(rs) < 1 || Check(ModeAsk, rs, req).Verdict != Run {
			t.Errorf("%q: rules %v do not allow it", cmd, RuleStrings(rs))
		}
	}
	if got := RuleStrings(AlwaysAllow(Request{Tool: BashTool, Command: "go build ./... && go test ./..."})); !reflect.DeepEqual(got, []string{`allow run_bash "go build ./..."`, `allow run_bash "go test ./..."`}) {
		t.Errorf("rules %q", got)
	}
}
