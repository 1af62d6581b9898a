package permission

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzCheck: no command makes Check or AlwaysAllow panic; a command a
// deny rule refuses stays refused however it is wrapped (when it parses); the rules
// "always allow" stores for a command allow it next time.
func FuzzCheck(f *testing.F) {
	for _, c := range rmSpellings {
		f.Add(c.cmd)
	}
	for _, c := range hidden {
		f.Add(c.cmd)
	}
	for _, c := range legit {
		f.Add(c.cmd)
	}
	deny := []Rule{
		{Tool: BashTool, Pattern: "rm *", Effect: Deny},
		{Tool: BashTool, Pattern: "curl *", Effect: Deny},
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := Check(ModeAll, deny, bash(cmd))
		// A line the parser cannot read is refused whole; wrapped, its
		// pieces may read as other commands, which are judged afresh.
		_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
		if d.Verdict == Refuse && err == nil {
			for _, wrapped := range []string{"(" + cmd + "\n)", "{ " + cmd + "\n}", "true && " + cmd, "echo $(" + cmd + "\n)"} {
				if w := Check(ModeAll, deny, bash(wrapped)); w.Verdict != Refuse {
					t.Errorf("%q is refused (%s) but %q runs (%s)", cmd, d.Reason, wrapped, w.Reason)
				}
			}
		}
		rules := AlwaysAllow(bash(cmd))
		for _, r := range rules {
			if err := Validate(r, nil); err != nil {
				t.Errorf("%q: always allow stores an invalid rule: %v", cmd, err)
			}
		}
		if len(rules) > 0 {
			if a := Check(ModeAsk, rules, bash(cmd)); a.Verdict != Run {
				t.Errorf("%q: the rules %q do not allow it next time: %s", cmd, RuleStrings(rules), a.Reason)
			}
		}
	})
}

// BenchmarkCheck: one realistic command against 20 rules, the gate's
// per-call budget being 50 µs all-in.
func BenchmarkCheck(b *testing.B) {
	rules := []Rule{
		{Tool: BashTool, Pattern: "go test *", Effect: Allow},
		{Tool: BashTool, Pattern: "go vet *", Effect: Allow},
		{Tool: BashTool, Pattern: "go build *", Effect: Allow},
		{Tool: BashTool, Pattern: "gofmt *", Effect: Allow},
		{Tool: BashTool, Pattern: "git status*", Effect: Allow},
		{Tool: BashTool, Pattern: "git diff*", Effect: Allow},
		{Tool: BashTool, Pattern: "git log*", Effect: Allow},
		{Tool: BashTool, Pattern: "ls *", Effect: Allow},
		{Tool: BashTool, Pattern: "cat *", Effect: Allow},
		{Tool: BashTool, Pattern: "grep *", Effect: Allow},
		{Tool: BashTool, Pattern: "tail *", Effect: Allow},
		{Tool: BashTool, Pattern: "cd *", Effect: Allow},
		{Tool: BashTool, Pattern: "npm run *", Effect: Allow},
		{Tool: BashTool, Pattern: "rm -rf *", Effect: Deny},
		{Tool: BashTool, Pattern: "git push*", Effect: Deny},
		{Tool: BashTool, Pattern: "curl *", Effect: Deny},
		{Tool: BashTool, Pattern: "sudo *", Effect: Deny},
		{Tool: Edits, Pattern: "docs/**", Effect: Allow},
		{Tool: "read_file", Pattern: "secrets/**", Effect: Deny},
		{Tool: WebFetchTool, Pattern: "*.golang.org", Effect: Allow},
	}
	req := bash("cd backend && go test -race -run 'TestCheck|TestValidate' ./permission/... 2>&1 | grep -v '^ok' | tail -20")
	if d := Check(ModeAsk, rules, req); d.Verdict != Run {
		b.Fatalf("%+v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		Check(ModeAsk, rules, req)
	}
}
