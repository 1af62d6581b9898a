package settingsrules

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"pilot/backend/permission"
	"pilot/backend/settingsjson"
)

const (
	project = "/work/app"
	home    = "/home/ann"
)

func TestEntry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		entry string
		want  []string // "tool pattern", in order
		why   string   // a word of the reason when ignored
	}{
		{"Bash", []string{"run_bash *"}, ""},
		{"Bash(*)", []string{"run_bash *"}, ""},
		{"Bash(git diff)", []string{"run_bash git diff"}, ""},
		{"Bash(npm run test:*)", []string{"run_bash npm run test", "run_bash npm run test *"}, ""},
		{"Bash(ls *)", []string{"run_bash ls", "run_bash ls *"}, ""},
		{"Bash(git * main)", []string{"run_bash git * main"}, ""},
		{"Bash(echo [x]?)", []string{`run_bash echo \[x\]\?`}, ""},
		{"Bash(a:* b:*)", nil, "prefix"},
		{"Read(./secrets/**)", []string{"read_file secrets/**", "list_files secrets/**", "glob secrets/**", "grep secrets/**"}, ""},
		{"Read(*.env)", []string{"read_file **/*.env", "read_file **/*.env/**", "list_files **/*.env", "list_files **/*.env/**", "glob **/*.env", "glob **/*.env/**", "grep **/*.env", "grep **/*.env/**"}, ""},
		{"Edit(src/**)", []string{"edits src/**"}, ""},
		{"Edit(/docs/*.md)", []string{"edits docs/*.md", "edits docs/*.md/**"}, ""},
		{"Edit(build/)", []string{"edits **/build/**"}, ""},
		{"Edit(//work/app/gen/**)", []string{"edits gen/**"}, ""},
		{"Edit(//etc/**)", nil, "outside"},
		{"Read(~/.ssh/**)", nil, "outside"},
		{"Edit(../x)", nil, "climbs"},
		{"Edit(!src/**)", nil, "negates"},
		{"Edit", []string{"edits **"}, ""},
		{"Write(out/{a,b}.txt)", []string{`write_file out/\{a,b\}.txt`, `write_file out/\{a,b\}.txt/**`}, ""},
		{"MultiEdit(src/**)", []string{"multi_patch src/**"}, ""},
		{"WebFetch", []string{"web_fetch *"}, ""},
		{"WebFetch(domain:Example.com)", []string{"web_fetch example.com"}, ""},
		{"WebFetch(domain:*.github.com)", []string{"web_fetch *.github.com"}, ""},
		{"WebFetch(https://x.org/a)", nil, "domain:"},
		{"WebFetch(domain:x.org/a)", nil, "host"},
		{"mcp__github", []string{"mcp__github *"}, ""},
		{"mcp__github__*", []string{"mcp__github *"}, ""},
		{"mcp__github__create_issue", []string{"mcp__github__create_issue *"}, ""},
		{"mcp__github__get_*", []string{"mcp__github get_*"}, ""},
		{"mcp__github(x)", nil, "specifier"},
		{"mcp__", nil, "server"},
		{"Glob", []string{"glob *"}, ""},
		{"Grep(foo)", nil, "specifier"},
		{"TodoWrite", []string{"todo_write *"}, ""},
		{"Task", []string{"task *"}, ""},
		{"WebSearch", []string{"web_search *"}, ""},
		{"WebSearch(*)", []string{"web_search *"}, ""},
		{"WebSearch(go.dev)", nil, "search service's host"},
		{"NotebookEdit(x.ipynb)", nil, "notebook"},
		{"Frobnicate", nil, "no tool"},
		{"Bash(npm test", nil, "does not close"},
		{"(x)", nil, "names no tool"},
	}
	for _, tt := range tests {
		rs, why := Entry(tt.entry, permission.Deny, project, home)
		var got []string
		for _, r := range rs {
			if r.Effect != permission.Deny {
				t.Errorf("%s: effect %s", tt.entry, r.Effect)
			}
			got = append(got, r.Tool+" "+r.Pattern)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s = %q, want %q (why %q)", tt.entry, got, tt.want, why)
		}
		if (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
			t.Errorf("%s: reason %q, want one with %q", tt.entry, why, tt.why)
		}
		if why != "" && !strings.HasSuffix(why, ".") {
			t.Errorf("%s: reason %q is not a sentence", tt.entry, why)
		}
	}
}

// TestMappedRulesJudge runs mapped entries through permission.Check: the
// semantics Claude Code documents hold in Pilot's gate.
func TestMappedRulesJudge(t *testing.T) {
	t.Parallel()
	rulesOf := func(effect permission.Effect, entries ...string) []permission.Rule {
		var out []permission.Rule
		for _, e := range entries {
			rs, why := Entry(e, effect, project, home)
			if why != "" {
				t.Fatalf("%s: %s", e, why)
			}
			out = append(out, rs...)
		}
		return out
	}
	tests := []struct {
		name  string
		rules []permission.Rule
		req   permission.Request
		want  permission.Verdict
	}{
		{"prefix allows the bare command", rulesOf(permission.Allow, "Bash(npm run test:*)"), permission.Request{Tool: "run_bash", Command: "npm run test"}, permission.Run},
		{"prefix allows with arguments", rulesOf(permission.Allow, "Bash(npm run test:*)"), permission.Request{Tool: "run_bash", Command: "npm run test -- --watch"}, permission.Run},
		{"prefix keeps a word boundary", rulesOf(permission.Allow, "Bash(npm run test:*)"), permission.Request{Tool: "run_bash", Command: "npm run testing"}, permission.AskUser},
		{"prefix does not allow a chained command", rulesOf(permission.Allow, "Bash(npm run test:*)"), permission.Request{Tool: "run_bash", Command: "npm run test && rm -rf /"}, permission.AskUser},
		{"exact command", rulesOf(permission.Allow, "Bash(git diff)"), permission.Request{Tool: "run_bash", Command: "git diff --stat"}, permission.AskUser},
		{"deny a command anywhere in a line", rulesOf(permission.Deny, "Bash(rm -rf:*)"), permission.Request{Tool: "run_bash", Command: "ls && rm -rf build"}, permission.Refuse},
		{"deny a read", rulesOf(permission.Deny, "Read(./secrets/**)"), permission.Request{Tool: "read_file", ReadOnly: true, Paths: []string{"secrets/k.pem"}}, permission.Refuse},
		{"deny a read of a folder named", rulesOf(permission.Deny, "Read(.env)"), permission.Request{Tool: "read_file", ReadOnly: true, Paths: []string{"api/.env"}}, permission.Refuse},
		{"deny a grep in the folder", rulesOf(permission.Deny, "Read(./secrets/**)"), permission.Request{Tool: "grep", ReadOnly: true, Paths: []string{"secrets/sub"}}, permission.Refuse},
		{"a read elsewhere runs", rulesOf(permission.Deny, "Read(./secrets/**)"), permission.Request{Tool: "read_file", ReadOnly: true, Paths: []string{"src/a.go"}}, permission.Run},
		{"allow edits under src", rulesOf(permission.Allow, "Edit(src/**)"), permission.Request{Tool: "patch_file", Paths: []string{"src/a/b.go"}}, permission.Run},
		{"not outside src", rulesOf(permission.Allow, "Edit(src/**)"), permission.Request{Tool: "patch_file", Paths: []string{"main.go"}}, permission.AskUser},
		{"a fetch of the domain", rulesOf(permission.Allow, "WebFetch(domain:example.com)"), permission.Request{Tool: "web_fetch", Host: "example.com"}, permission.Run},
		{"not of a subdomain", rulesOf(permission.Allow, "WebFetch(domain:example.com)"), permission.Request{Tool: "web_fetch", Host: "api.example.com"}, permission.AskUser},
		{"an MCP server", rulesOf(permission.Allow, "mcp__github"), permission.Request{Tool: "mcp__github__create_issue", Server: "github", MCPTool: "create_issue"}, permission.Run},
		{"an MCP tool", rulesOf(permission.Deny, "mcp__github__delete_repo"), permission.Request{Tool: "mcp__github__delete_repo", Server: "github", MCPTool: "delete_repo"}, permission.Refuse},
	}
	for _, tt := range tests {
		if got := permission.Check(permission.ModeAsk, tt.rules, tt.req); got.Verdict != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got.Verdict, got.Reason, tt.want)
		}
	}
}

func TestMapTrustAndIgnored(t *testing.T) {
	t.Parallel()
	perm := settingsjson.Permissions{Allow: []string{"Bash(make:*)", "NotebookEdit"}, Deny: []string{"Read(./secrets/**)"}, Ask: []string{"Bash(git push:*)"}, DefaultMode: "acceptEdits"}
	files := []settingsjson.File{
		{Path: home + "/.claude/settings.json", Scope: settingsjson.ScopeUser, Permissions: settingsjson.Permissions{Allow: []string{"Bash(go test:*)", "mcp__nowhere__x"}}},
		{Path: project + "/.claude/settings.json", Scope: settingsjson.ScopeProject, Permissions: perm},
		{Path: project + "/.pilot/settings.json", Scope: settingsjson.ScopePilotProject, Err: errors.New("x is not valid settings JSON: fix it")},
	}
	known := permission.Known([]string{"run_bash", "read_file", "list_files", "glob", "grep"}, []string{"github"})
	for _, trusted := range []bool{false, true} {
		s := Map(files, project, home, known, func(settingsjson.File) bool { return trusted })
		applies := map[string]bool{}
		for _, r := range s.Rules {
			applies[r.String()] = r.Applies
		}
		want := map[string]bool{
			`allow run_bash "go test"`:    true, // the user's own file
			`allow run_bash "make *"`:     trusted,
			`deny read_file "secrets/**"`: true, // deny applies untrusted
			`ask run_bash "git push *"`:   true, // so does ask
			`deny grep "secrets/**"`:      true,
			`allow run_bash "make"`:       trusted,
		}
		for k, v := range want {
			got, ok := applies[k]
			if !ok || got != v {
				t.Errorf("trusted=%v: %s applies=%v (listed %v), want %v", trusted, k, got, ok, v)
			}
		}
		var ignored []string
		for _, ig := range s.Ignored {
			ignored = append(ignored, ig.Entry)
			if ig.Reason == "" || ig.File == "" {
				t.Errorf("ignored %+v has no reason or file", ig)
			}
		}
		for _, e := range []string{"mcp__nowhere__x", "NotebookEdit", "defaultMode: acceptEdits", ""} {
			if !slices.Contains(ignored, e) {
				t.Errorf("%q is not listed as ignored: %q", e, ignored)
			}
		}
		inForce := permission.Check(permission.ModeAsk, s.InForce(), permission.Request{Tool: "run_bash", Command: "make build"}).Verdict
		if want := map[bool]permission.Verdict{false: permission.AskUser, true: permission.Run}[trusted]; inForce != want {
			t.Errorf("trusted=%v: make build is %v, want %v", trusted, inForce, want)
		}
	}
}

// FuzzEntry: any entry maps to valid rules or a sentence, never a panic,
// and never a rule that reaches outside the project or Validate refuses
// unnoticed.
func FuzzEntry(f *testing.F) {
	for _, s := range []string{"Bash(npm run test:*)", "Read(./secrets/**)", "Edit(//work/app/x)", "WebFetch(domain:a.b)", "mcp__s__t", "Bash(", "Read(~/)", "Edit([)", "Bash(**:*)", "Edit(/..)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		rs, why := Entry(entry, permission.Allow, project, home)
		if why != "" {
			if len(rs) != 0 {
				t.Fatalf("%q: ignored (%s) but rules %v", entry, why, rs)
			}
			return
		}
		if len(rs) == 0 {
			t.Fatalf("%q: no rules and no reason", entry)
		}
		for _, r := range rs {
			file := r.Tool == permission.Edits || slices.Contains(append(readTools, "write_file", "multi_patch"), r.Tool)
			if file && (strings.HasPrefix(r.Pattern, "/") || strings.HasPrefix(r.Pattern, "../") || strings.Contains(r.Pattern, "/../")) {
				t.Fatalf("%q: pattern %q leaves the project", entry, r.Pattern)
			}
		}
		_ = validate(rs, nil) // must not panic
	})
}
