package customagent

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/frontmatter"
)

func TestParse(t *testing.T) {
	t.Parallel()
	all := []string{"list_files", "read_file", "glob", "grep", "write_file", "patch_file", "multi_patch", "run_bash"}
	cases := []struct {
		name, file string
		want       Agent
		readOnly   bool
		err        string
	}{
		{name: "read-only reviewer (Claude Code's example)",
			file: "---\nname: code-reviewer\ndescription: Expert code review specialist. Use after writing code.\ntools: Read, Grep, Glob, Bash\nmodel: sonnet\n---\nYou are a senior code reviewer.\n",
			want: Agent{Name: "code-reviewer", Description: "Expert code review specialist. Use after writing code.", Tools: []string{"read_file", "glob", "grep", "run_bash"}, Model: "sonnet", Prompt: "You are a senior code reviewer."}},
		{name: "only reads", readOnly: true,
			file: "---\nname: finder\ndescription: Finds things.\ntools: Read, Grep, Glob, LS\n---\nFind.",
			want: Agent{Name: "finder", Description: "Finds things.", Tools: []string{"list_files", "read_file", "glob", "grep"}, Prompt: "Find."}},
		{name: "no tools key: all of them",
			file: "---\nname: fixer\ndescription: Fixes.\nmodel: inherit\n---\nFix it.",
			want: Agent{Name: "fixer", Description: "Fixes.", Tools: all, Model: "inherit", Prompt: "Fix it."}},
		{name: "a YAML list, Pilot's own names, CRLF",
			file: "---\r\nname: lister\r\ndescription: >\r\n  Lists\r\n  files.\r\ntools:\r\n  - list_files\r\n  - Write\r\n---\r\nList.\r\n",
			want: Agent{Name: "lister", Description: "Lists files.", Tools: []string{"list_files", "write_file"}, Prompt: "List."}},
		{name: "names Pilot cannot give are ignored with a reason", readOnly: true,
			file: "---\nname: web\ndescription: Web.\ntools: Read, WebSearch, WebFetch, mcp__gh__issues, Bash(git:*)\n---\nGo.",
			want: Agent{Name: "web", Description: "Web.", Tools: []string{"read_file"}, Prompt: "Go.", Ignored: []string{
				"Bash(git:*): give the tool by its name alone; the session's permission rules decide what it may do",
				"WebFetch: a custom agent in Pilot cannot use it (only LS, Read, Glob, Grep, Write, Edit, MultiEdit, Bash)",
				"WebSearch: a custom agent in Pilot cannot use it (only LS, Read, Glob, Grep, Write, Edit, MultiEdit, Bash)",
				"mcp__gh__issues: custom agents in Pilot do not get MCP tools"}}},
		{name: "no front matter", file: "You are a reviewer.", err: "no front matter"},
		{name: "not closed", file: "---\nname: x\n", err: "not closed"},
		{name: "bad YAML", file: "---\nname: x\ndescription: a: b\n---\nHi", err: "not valid YAML"},
		{name: "no name", file: "---\ndescription: d\n---\nHi", err: "no name"},
		{name: "bad name", file: "---\nname: Code Reviewer\ndescription: d\n---\nHi", err: "not an agent name"},
		{name: "no description", file: "---\nname: x\n---\nHi", err: "no description"},
		{name: "no prompt", file: "---\nname: x\ndescription: d\n---\n", err: "no prompt"},
		{name: "tools a map", file: "---\nname: x\ndescription: d\ntools: {a: b}\n---\nHi", err: "must be a YAML list or one string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse([]byte(c.file))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
			if got.ReadOnly() != c.readOnly {
				t.Fatalf("ReadOnly = %v, want %v", got.ReadOnly(), c.readOnly)
			}
		})
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	home, pilot, project := t.TempDir(), t.TempDir(), t.TempDir()
	agent := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nPrompt of " + name + "."
	}
	write(t, filepath.Join(project, ".claude/agents/reviewer.md"), agent("reviewer", "project's"))
	write(t, filepath.Join(home, ".claude/agents/reviewer.md"), agent("reviewer", "user's"))
	write(t, filepath.Join(home, ".claude/agents/helper.md"), agent("helper", "user's helper"))
	write(t, filepath.Join(pilot, "agents/tester.md"), agent("tester", "pilot's"))
	write(t, filepath.Join(project, ".pilot/agents/broken.md"), "no front matter")
	write(t, filepath.Join(project, ".pilot/agents/notes.txt"), "not an agent")

	set := Load(home, pilot, project)
	if got := set.Names(); !reflect.DeepEqual(got, []string{"helper", "reviewer", "tester"}) {
		t.Fatalf("names = %v", got)
	}
	r, _ := set.Find("reviewer")
	if r.Description != "project's" || r.Scope != frontmatter.ScopeProject {
		t.Fatalf("reviewer = %+v, want the project's", r)
	}
	if k, _ := set.Find("tester"); k.Scope != frontmatter.ScopePilotUser {
		t.Fatalf("tester's scope = %s", k.Scope)
	}
	if len(set.Problems) != 2 {
		t.Fatalf("problems = %+v, want the broken file and the shadowed reviewer", set.Problems)
	}
	for _, p := range set.Problems {
		switch filepath.Base(p.Path) {
		case "broken.md":
			if !strings.Contains(p.String(), "is not used as an agent: it has no front matter") {
				t.Errorf("broken: %s", p)
			}
		case "reviewer.md":
			if p.Scope != frontmatter.ScopeUser || !strings.Contains(p.Reason, "same name (reviewer) and wins") {
				t.Errorf("shadowed: %+v", p)
			}
		default:
			t.Errorf("unexpected problem %+v", p)
		}
	}
	if set := Load("", "", t.TempDir()); len(set.Agents)+len(set.Problems) != 0 {
		t.Fatalf("an empty project found %+v", set)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: Read, Edit\nmodel: opus\n---\nHi"))
	f.Add([]byte("---\nname: a\ndescription: b\ntools: [Read, 1, {x: y}]\n---\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("\ufeff---\r\nname: *a\r\n---"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Parse(b)
		if err != nil {
			if a.Name != "" || err.Error() == "" {
				t.Fatalf("an error with an agent: %+v, %v", a, err)
			}
			return
		}
		if !naming.Valid.MatchString(a.Name) || a.Description == "" || a.Prompt == "" {
			t.Fatalf("accepted %+v", a)
		}
		for _, tool := range a.Tools {
			if !ReadTools[tool] && !ChangeTools[tool] {
				t.Fatalf("tool %q given", tool)
			}
		}
	})
}
