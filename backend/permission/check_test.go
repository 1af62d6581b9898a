package permission

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func bash(c string) Request { return Request{Tool: BashTool, Command: c} }

// The order is deny rules, read-only, the mode, allow rules, edits, ask.
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Tool: BashTool, Pattern: "go test *", Effect: Allow},
		{Tool: BashTool, Pattern: "git push*", Effect: Deny},
		{Tool: Edits, Pattern: "docs/**", Effect: Allow},
		{Tool: WebFetchTool, Pattern: "pkg.go.dev", Effect: Allow},
	}
	edit := Request{Tool: "write_file", Paths: []string{"docs/a.md"}}
	cases := []struct {
		name string
		mode Mode
		req  Request
		want Verdict
	}{
		// old: none let an allow rule run the call.
		{"none refuses a command a rule allows", ModeNone, bash("go test ./..."), Refuse},
		{"none refuses an edit a rule allows", ModeNone, edit, Refuse},
		{"none refuses a fetch a rule allows", ModeNone, Request{Tool: WebFetchTool, Host: "pkg.go.dev"}, Refuse},
		{"none still reads", ModeNone, Request{Tool: "read_file", ReadOnly: true, Paths: []string{"a.go"}}, Run},
		{"deny comes before all", ModeAll, bash("git push"), Refuse},
		{"all runs what no rule allows", ModeAll, bash("rm -rf build"), Run},
		{"a deny rule refuses what cannot be read, even under all", ModeAll, bash("eval $X"), Refuse},
		{"plan refuses what a rule allows", ModePlan, bash("go test ./..."), Refuse},
		{"plan follows a host rule", ModePlan, Request{Tool: WebFetchTool, Host: "pkg.go.dev"}, Run},
		{"plan asks a fetch", ModePlan, Request{Tool: WebFetchTool, Host: "example.org"}, AskUser},
		{"ask follows an allow rule", ModeAsk, bash("go test ./..."), Run},
		{"edits applies an edit", ModeEdits, Request{Tool: "write_file", Paths: []string{"main.go"}}, Run},
		{"edits asks a command", ModeEdits, bash("make"), AskUser},
		{"an empty mode asks", "", bash("make"), AskUser},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Check(c.mode, rules, c.req); got.Verdict != c.want {
				t.Errorf("got %v (%s), want %v", got.Verdict, got.Reason, c.want)
			}
		})
	}
	if got := Check(ModeAll, rules[:1], bash("eval $X")); got.Verdict != Run {
		t.Errorf("all runs what cannot be read when no rule denies: %+v", got)
	}
}

// Deny rules on read-only tools deny; an edits rule is about changes only.
func TestDenyOnReads(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Tool: "read_file", Pattern: "secrets/**", Effect: Deny},
		{Tool: "grep", Pattern: "secrets", Effect: Deny},
		{Tool: "list_files", Pattern: "private/**", Effect: Deny},
		{Tool: Edits, Pattern: "docs/**", Effect: Deny},
	}
	read := func(tool, p string) Request { return Request{Tool: tool, ReadOnly: true, Paths: []string{p}} }
	cases := []struct {
		req  Request
		want Verdict
	}{
		{read("read_file", "secrets/a.txt"), Refuse},
		{read("read_file", "./secrets/deep/b.txt"), Refuse},
		{read("read_file", "src/a.txt"), Run},
		{read("grep", "secrets"), Refuse},
		{read("grep", "."), Run},
		{read("list_files", "private"), Refuse},
		{read("glob", "secrets"), Run},
		{read("read_file", "docs/a.md"), Run},
		{Request{Tool: "write_file", Paths: []string{"docs/a.md"}}, Refuse},
	}
	for _, c := range cases {
		for _, mode := range []Mode{ModeAsk, ModeAll, ModeNone, ModePlan} {
			if got := Check(mode, rules, c.req); got.Verdict != c.want {
				t.Errorf("%s %v under %s: got %v (%s), want %v", c.req.Tool, c.req.Paths, mode, got.Verdict, got.Reason, c.want)
			}
		}
	}
	for _, c := range []struct {
		tool, rel string
		want      bool
	}{
		{"read_file", "secrets/a.txt", true},
		{"read_file", "secrets", true},
		{"read_file", "src/secrets.go", false},
		{"grep", "secrets", true},
		{"grep", "secrets/a.txt", false},
		{"list_files", "private/x/y", true},
		{"glob", "secrets/a.txt", false},
		{"read_file", "docs/a.md", false},
	} {
		if got := Withholds(rules, c.tool, c.rel); got != c.want {
			t.Errorf("Withholds(%s, %s) = %v, want %v", c.tool, c.rel, got, c.want)
		}
	}
}

// A command that writes through a redirection says so.
func TestRedirectionReason(t *testing.T) {
	t.Parallel()
	rules := []Rule{{Tool: BashTool, Pattern: "echo *", Effect: Allow}}
	d := Check(ModeAsk, rules, bash("echo x > ~/.bashrc"))
	if d.Verdict != AskUser || !strings.Contains(d.Reason, "writes to ~/.bashrc through a redirection") {
		t.Errorf("%+v", d)
	}
	d = Check(ModeAsk, rules, bash("echo x > /dev/null 2>&1"))
	if d.Verdict != Run {
		t.Errorf("/dev/null: %+v", d)
	}
	rules = append(rules, Rule{Tool: BashTool, Pattern: "echo * > out.txt", Effect: Allow})
	if d = Check(ModeAsk, rules, bash("echo hi > out.txt")); d.Verdict != Run || d.Rule.Pattern != "echo * > out.txt" {
		t.Errorf("a rule that names the redirection: %+v", d)
	}
	if d = Check(ModeAsk, rules, bash("echo hi > other.txt")); d.Verdict != AskUser {
		t.Errorf("another target: %+v", d)
	}
}

// Code built at run time: no rule allows it, a deny rule refuses it in
// doubt, and the Decision says why.
func TestDynamicCommands(t *testing.T) {
	t.Parallel()
	allowAll := []Rule{{Tool: BashTool, Pattern: "*", Effect: Allow}}
	deny := []Rule{{Tool: BashTool, Pattern: "git push*", Effect: Deny}}
	for _, c := range []struct{ cmd, why string }{
		{"eval \"$X\"", "eval"},
		{"sh -c 'ls'", "sh -c"},
		{"$CC main.c", "$CC"},
		{"$(which go) build", "$(which go)"},
		{"echo x | bash", "reads its commands from its input"},
		{"source $F", "$F"},
		{"ls 'unclosed", "cannot read"},
		{"find . -exec sh -c 'ls \"$1\"' _ {} \\;", "sh -c"},
		{"xargs bash -c 'ls'", "bash -c"},
		{"ls | xargs sh", "reads its commands from its input"},
	} {
		d := Check(ModeAsk, allowAll, bash(c.cmd))
		if d.Verdict != AskUser || !d.Dynamic || !strings.Contains(d.Reason, c.why) {
			t.Errorf("%q under allow *: %+v", c.cmd, d)
		}
		if got := AlwaysAllow(bash(c.cmd)); got != nil {
			t.Errorf("%q: always allow gave %v", c.cmd, got)
		}
		if strings.Contains(c.cmd, "sh -c") {
			continue // the string is read: deny judges what it runs
		}
		d = Check(ModeAll, deny, bash(c.cmd))
		if d.Verdict != Refuse || !strings.Contains(d.Reason, c.why) || !strings.Contains(d.Reason, "git push*") {
			t.Errorf("%q under a deny rule: %+v", c.cmd, d)
		}
	}
	if d := Check(ModeAll, deny, bash("sh -c 'git push'")); d.Verdict != Refuse {
		t.Errorf("sh -c 'git push': %+v", d)
	}
	if d := Check(ModeAll, deny, bash("sh -c 'git status'")); d.Verdict != Run {
		t.Errorf("sh -c 'git status' is read, so the deny rule does not match: %+v", d)
	}
}

// A leading folder: deny rules see through it, allow rules do not.
func TestLeadingPath(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Tool: BashTool, Pattern: "rm *", Effect: Allow},
		{Tool: BashTool, Pattern: "./gradlew *", Effect: Allow},
		{Tool: BashTool, Pattern: "curl *", Effect: Deny},
	}
	for _, c := range []struct {
		cmd  string
		want Verdict
	}{
		{"rm build/x", Run},
		{"/tmp/x/rm build/x", AskUser},
		{"sudo rm x", AskUser},
		{"./gradlew build", Run},
		{"/usr/bin/curl http://x", Refuse},
		{"CURL http://x", Refuse},
		{"./curl x", Refuse},
	} {
		if got := Check(ModeAsk, rules, bash(c.cmd)); got.Verdict != c.want {
			t.Errorf("%q: got %v (%s), want %v", c.cmd, got.Verdict, got.Reason, c.want)
		}
	}
}

// "Always allow" on a compound command stores one exact rule per part,
// and they match it next time (old: one rule for the whole line that the
// matcher, needing every part allowed, never matched).
func TestAlwaysAllowCompound(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cmd  string
		want []string
	}{
		{"go build ./... && go test ./...", []string{`allow run_bash "go build ./..."`, `allow run_bash "go test ./..."`}},
		{"cd sub && make", []string{`allow run_bash "cd sub"`, `allow run_bash "make"`}},
		{"make && make", []string{`allow run_bash "make"`}},
		{"go test ./... 2>&1 | tail -5", []string{`allow run_bash "go test ./..."`, `allow run_bash "tail -5"`}},
		{"ls *.go", []string{`allow run_bash "ls \\*.go"`}},
		{"echo \"a b\" > out.txt", []string{`allow run_bash "echo 'a b' > out.txt"`}},
		{"timeout 60 go test ./...", []string{`allow run_bash "timeout 60 go test ./..."`, `allow run_bash "go test ./..."`}},
		{"eval make", nil},
		{"{ make; } > log", nil},
	}
	for _, c := range cases {
		rules := AlwaysAllow(bash(c.cmd))
		if got := RuleStrings(rules); !reflect.DeepEqual(got, c.want) && (len(got) != 0 || len(c.want) != 0) {
			t.Errorf("%q: got %q, want %q", c.cmd, got, c.want)
		}
		for _, r := range rules {
			if err := Validate(r, nil); err != nil {
				t.Errorf("%q: %v", c.cmd, err)
			}
		}
		if len(rules) > 0 {
			if d := Check(ModeAsk, rules, bash(c.cmd)); d.Verdict != Run {
				t.Errorf("%q: the stored rules do not match it next time: %+v", c.cmd, d)
			}
		}
	}
	// A here-document's body is part of its command.
	rules := AlwaysAllow(bash("python3 <<EOF\nprint(1)\nEOF"))
	if d := Check(ModeAsk, rules, bash("python3 <<EOF\nimport os; os.remove('x')\nEOF")); d.Verdict != AskUser {
		t.Errorf("a rule for one here-document allowed another: %v %+v", RuleStrings(rules), d)
	}
	// An exact part does not allow a neighbour.
	rules = AlwaysAllow(bash("go build ./... && go test ./..."))
	if d := Check(ModeAsk, rules, bash("go build ./... && go test -exec rm ./...")); d.Verdict != AskUser {
		t.Errorf("a changed part was allowed: %+v", d)
	}
}

func TestNamesHost(t *testing.T) {
	t.Parallel()
	fetch := func(p string) Rule { return Rule{Tool: WebFetchTool, Pattern: p, Effect: Allow} }
	cases := []struct {
		r    Rule
		host string
		want bool
	}{
		{fetch("localhost"), "localhost", true},
		{fetch("LocalHost"), "localhost", true},
		{fetch("localhost."), "localhost", true},
		{fetch("169.254.169.254"), "169.254.169.254", true},
		{fetch("::1"), "::1", true},
		{fetch("*"), "localhost", false},
		{fetch("*.internal"), "db.internal", false},
		{fetch("169.254.169.25?"), "169.254.169.254", false},
		{fetch("localhos[t]"), "localhost", false},
		{fetch("localhost"), "127.0.0.1", false},
		{fetch("localhost"), "", false},
		{Rule{Tool: WebFetchTool, Pattern: "localhost", Effect: Deny}, "localhost", false},
		{Rule{Tool: BashTool, Pattern: "localhost", Effect: Allow}, "localhost", false},
	}
	for _, c := range cases {
		if got := NamesHost(c.r, c.host); got != c.want {
			t.Errorf("NamesHost(%v, %q) = %v, want %v", c.r, c.host, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	known := Known([]string{"list_files", "read_file", "glob", "grep", "write_file", "patch_file", "multi_patch", "run_bash", "web_fetch", "task", "todo_write", "present_plan", "remember"}, []string{"gh"})
	bad := []struct {
		r    Rule
		says string
	}{
		{Rule{Tool: BashTool, Pattern: "rm [x", Effect: Deny}, "not closed"},
		{Rule{Tool: BashTool, Pattern: "rm {a,b", Effect: Deny}, "not closed"},
		{Rule{Tool: BashTool, Pattern: "", Effect: Deny}, "empty pattern"},
		{Rule{Tool: BashTool, Pattern: "  \t", Effect: Deny}, "empty pattern"},
		{Rule{Tool: "bash", Pattern: "rm *", Effect: Deny}, "write run_bash instead"},
		{Rule{Tool: "Bash", Pattern: "rm *", Effect: Deny}, "write run_bash instead"},
		{Rule{Tool: "Run_Bash", Pattern: "rm *", Effect: Deny}, "write run_bash instead"},
		{Rule{Tool: "RUN_BASH", Pattern: "rm *", Effect: Deny}, "write run_bash instead"},
		{Rule{Tool: "Read", Pattern: "*", Effect: Deny}, "write read_file instead"},
		{Rule{Tool: "Edit", Pattern: "*", Effect: Deny}, "write edits instead"},
		{Rule{Tool: "WebFetch", Pattern: "*", Effect: Allow}, "write web_fetch instead"},
		{Rule{Tool: "TodoWrite", Pattern: "*", Effect: Allow}, "write todo_write instead"},
		{Rule{Tool: "MCP__gh", Pattern: "*", Effect: Allow}, "write mcp__gh instead"},
		{Rule{Tool: "mcp__other", Pattern: "*", Effect: Allow}, "does not exist"},
		{Rule{Tool: "mcp__gh__", Pattern: "*", Effect: Allow}, "does not exist"},
		{Rule{Tool: "frobnicate", Pattern: "*", Effect: Allow}, "does not exist"},
		{Rule{Tool: "", Pattern: "*", Effect: Allow}, "names no tool"},
		{Rule{Tool: BashTool, Pattern: "*", Effect: "maybe"}, "neither allow nor deny"},
		{Rule{Tool: "remember", Pattern: "*", Effect: Allow}, "only a deny rule applies to it"},
		{Rule{Tool: "remember", Pattern: "**", Effect: Ask}, "only a deny rule applies to it"},
	}
	for _, c := range bad {
		err := Validate(c.r, known)
		if err == nil || !errors.Is(err, ErrInvalidRule) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: %v, want an ErrInvalidRule saying %q", c.r, err, c.says)
			continue
		}
		if msg := err.Error(); !strings.HasSuffix(msg, ".") || strings.ToUpper(msg[:1]) != msg[:1] {
			t.Errorf("%v: %q is not a sentence", c.r, msg)
		}
	}
	for _, r := range []Rule{
		{Tool: BashTool, Pattern: "go test *", Effect: Allow},
		{Tool: "remember", Pattern: "**", Effect: Deny},
		{Tool: Edits, Pattern: "docs/**", Effect: Allow},
		{Tool: "read_file", Pattern: "secrets/**", Effect: Deny},
		{Tool: "mcp__gh", Pattern: "list_*", Effect: Allow},
		{Tool: "mcp__gh__create_issue", Pattern: "*", Effect: Allow},
		{Tool: BashTool, Pattern: `rm \[x`, Effect: Deny},
		{Tool: BashTool, Pattern: "go {test,vet} *", Effect: Allow},
	} {
		if err := Validate(r, known); err != nil {
			t.Errorf("%v: %v", r, err)
		}
	}
	if err := Validate(Rule{Tool: "anything", Pattern: "*", Effect: Allow}, nil); err != nil {
		t.Errorf("nil known checks no tool: %v", err)
	}
}
