package commands

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscovery(t *testing.T) {
	t.Parallel()
	home, user, proj := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(proj, ".pilot/commands/review.md"), "---\ndescription: Review a file\nargument-hint: FILE\n---\n\nReview $1 for $2.\n")
	write(t, filepath.Join(proj, ".claude/commands/review.md"), "shadowed by .pilot")
	write(t, filepath.Join(proj, ".claude/commands/git/commit.md"), "# Commit the work\nWrite a commit message: $ARGUMENTS")
	write(t, filepath.Join(home, "commands/explain.md"), "Explain $ARGUMENTS simply.")
	write(t, filepath.Join(home, "commands/notes.txt"), "not a command")
	write(t, filepath.Join(user, ".claude/commands/explain.md"), "shadowed by PILOT_HOME's")
	write(t, filepath.Join(user, ".claude/commands/standup.md"), "---\ndescription: Write my standup\n---\nSummarise yesterday's commits.")
	cmds, problems := List(home, user, proj)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	got := map[string]Command{}
	var names []string
	for _, c := range cmds {
		got[c.Name] = c
		names = append(names, c.Name)
	}
	if !reflect.DeepEqual(names, []string{"explain", "git:commit", "review", "standup"}) {
		t.Fatalf("names %v", names)
	}
	if c := got["review"]; c.Source != SourcePilot || c.Description != "Review a file" || c.ArgumentHint != "FILE" || c.Body != "Review $1 for $2.\n" {
		t.Errorf("review %+v", c)
	}
	if c := got["git:commit"]; c.Source != SourceClaude || c.Description != "Commit the work" {
		t.Errorf("git:commit %+v", c)
	}
	if got["explain"].Source != SourceUser {
		t.Errorf("explain %+v", got["explain"])
	}
	if c := got["standup"]; c.Source != SourceUserClaude || c.Description != "Write my standup" {
		t.Errorf("standup (~/.claude/commands) %+v", c)
	}
	out, ok, err := ExpandText(home, user, proj, `/review "main.go" 'bugs and races'`)
	if err != nil || !ok || out != "Review main.go for bugs and races.\n" {
		t.Errorf("expand: %q %v %v", out, ok, err)
	}
	if _, _, err := ExpandText(home, user, proj, "/nope x"); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown: %v", err)
	}
	if out, ok, _ := ExpandText(home, user, proj, "not /a command"); ok || out != "not /a command" {
		t.Errorf("plain text changed: %q", out)
	}
	if out, ok, _ := ExpandText(home, user, proj, "/usr/bin/env is a path"); ok || out != "/usr/bin/env is a path" {
		t.Errorf("a path was taken for a command: %q", out)
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, args, want string }{
		{"Fix $ARGUMENTS now", "the bug in x", "Fix the bug in x now"},
		{"$1-$2-$3", "a b", "a-b-"},
		{"cost $5 and $10 and $", "x", "cost  and $10 and $"},
		{"$9", "1 2 3 4 5 6 7 8 nine", "nine"},
		{"no args", "", "no args"},
	} {
		if got := Expand(c.body, c.args); got != c.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", c.body, c.args, got, c.want)
		}
	}
	if w := Words(`a "b c" 'd' ""`); !reflect.DeepEqual(w, []string{"a", "b c", "d", ""}) {
		t.Errorf("words %q", w)
	}
}

// TestBuiltinInit: /init expands to the request for a first AGENTS.md,
// proposed for review; a command of the user's called init replaces it.
func TestBuiltinInit(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	out, ok, err := ExpandText(t.TempDir(), t.TempDir(), project, "/init focus on the tests")
	if err != nil || !ok || !strings.Contains(out, "AGENTS.md") || !strings.Contains(out, "reviews it") || !strings.HasSuffix(strings.TrimSpace(out), "focus on the tests") {
		t.Fatalf("built in: %v %v %q", ok, err, out)
	}
	if err := os.MkdirAll(filepath.Join(project, ".pilot", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".pilot", "commands", "init.md"), []byte("Our own init."), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, err := ExpandText(t.TempDir(), t.TempDir(), project, "/init"); err != nil || out != "Our own init." {
		t.Errorf("the user's own: %q %v", out, err)
	}
}

// TestBuiltinRemember: /remember and /remember-user carry the text to the
// agent with where it goes (the project's file through patch_file, the
// user's own through the remember tool), both reviewed; without text they
// are not run, with a sentence saying what to type.
func TestBuiltinRemember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string // in the expansion; nil: refused
	}{
		{"/remember Use pnpm, not npm.", []string{"Use pnpm, not npm.", "AGENTS.md", "patch_file", "reviews it"}},
		{"/remember-user Answer in British English.\nKeep it short.", []string{"Answer in British English.\nKeep it short.", "remember tool", "reviews that change"}},
		{"/remember", nil},
		{"/remember-user   ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			out, ok, err := ExpandText(t.TempDir(), t.TempDir(), t.TempDir(), tc.text)
			if tc.want == nil {
				if err == nil || !errors.Is(err, ErrNoArguments) || !strings.Contains(err.Error(), "what to remember") {
					t.Fatalf("no text: %q %v %v", out, ok, err)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("%v %v", ok, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the expansion lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
