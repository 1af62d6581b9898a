package memory

import (
	"strings"
	"testing"
)

// A nested file, or its import, that is a file the system prompt already
// gives (the same file or the same text) is shadowed with a sentence, not
// given to the model twice.
func TestNestedShadowsThePrompt(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("r", MaxFileBytes+100)
	cases := []struct {
		name     string
		home     map[string]string
		project  map[string]string
		want     string // "name state" of the nested files, one a line
		why      string // the shadowed file's sentence contains this
		notGiven string // no nested file's text contains it
	}{
		{
			name:     "an import of the root's file",
			project:  map[string]string{"AGENTS.md": "ROOT RULES", "sub/AGENTS.md": "sub rules @../AGENTS.md"},
			want:     "sub/AGENTS.md in force\nAGENTS.md shadowed",
			why:      "already in force as AGENTS.md, so it is not given again",
			notGiven: "ROOT RULES",
		},
		{
			name:     "an import of a file the root imports",
			project:  map[string]string{"AGENTS.md": "root @docs/style.md", "docs/style.md": "THE STYLE", "sub/AGENTS.md": "sub rules @../docs/style.md"},
			want:     "sub/AGENTS.md in force\ndocs/style.md shadowed",
			why:      "already in force as docs/style.md",
			notGiven: "THE STYLE",
		},
		{
			name:     "a nested file that only imports the root's",
			project:  map[string]string{"AGENTS.md": "ROOT RULES", "sub/AGENTS.md": "@../AGENTS.md"},
			want:     "sub/AGENTS.md shadowed",
			why:      "It only imports AGENTS.md, already in force",
			notGiven: "ROOT RULES",
		},
		{
			name:     "an import of a root file the prompt gives cut",
			project:  map[string]string{"AGENTS.md": big, "sub/AGENTS.md": "sub rules @../AGENTS.md"},
			want:     "sub/AGENTS.md in force\nAGENTS.md shadowed",
			why:      "already in force as AGENTS.md",
			notGiven: "rrrr",
		},
		{
			name: "an import of a root file the budget cut",
			home: map[string]string{".claude/CLAUDE.md": fill("u"), ".codex/AGENTS.md": fill("v")},
			project: map[string]string{"AGENTS.md": fill("w"), "CLAUDE.md": fill("x"), "progress.md": fill("y"),
				"sub/AGENTS.md": "sub rules @../progress.md"},
			want:     "sub/AGENTS.md in force\nprogress.md shadowed",
			why:      "already in force as progress.md",
			notGiven: "yyyy",
		},
		{
			name:     "an import of the user's own file",
			home:     map[string]string{".claude/CLAUDE.md": "USER RULES"},
			project:  map[string]string{"sub/AGENTS.md": "sub rules @~/.claude/CLAUDE.md"},
			want:     "sub/AGENTS.md in force\n~/.claude/CLAUDE.md shadowed",
			why:      "already in force as ~/.claude/CLAUDE.md",
			notGiven: "USER RULES",
		},
		{
			name:    "a nested file with the root's text",
			project: map[string]string{"AGENTS.md": "ROOT RULES", "sub/CLAUDE.md": "ROOT RULES\n"},
			want:    "sub/CLAUDE.md shadowed",
			why:     "already in force as AGENTS.md",
		},
		{
			name:    "an import the prompt does not give is given",
			project: map[string]string{"AGENTS.md": "root", "sub/AGENTS.md": "sub rules @notes.md", "sub/notes.md": "SUB NOTES"},
			want:    "sub/AGENTS.md in force\nsub/notes.md in force",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), t.TempDir()
			tree(t, home, "", c.home)
			tree(t, dir, "", c.project)
			files := Nested(home, dir, Folders("sub"), Load(home, dir))
			list, _ := got(files)
			if strings.Join(list, "\n") != c.want {
				t.Errorf("nested:\n%s\nwant:\n%s", strings.Join(list, "\n"), c.want)
			}
			if c.why != "" && !hasWhy(files, Shadowed, c.why) {
				t.Errorf("no shadowed file says %q: %s", c.why, strings.Join(list, ", "))
			}
			if framed := Framed(files); c.notGiven != "" && strings.Contains(framed, c.notGiven) {
				t.Errorf("the model is given %q again:\n%s", c.notGiven, framed)
			}
		})
	}
}

// fill is a file of MaxFileBytes-1 bytes of s: four fill the budget.
func fill(s string) string { return strings.Repeat(s, MaxFileBytes-1) }

// hasWhy reports whether a file in state says s.
func hasWhy(files []File, state State, s string) bool {
	for _, f := range files {
		if f.State == state && strings.Contains(f.Why, s) {
			return true
		}
	}
	return false
}
