package memory

import (
	"strings"
	"testing"
)

// A rule whose front matter names paths: is not in the system prompt: it
// is given, without its front matter, for the files matching its globs
// only, with its imports; a rule without paths: (or with a front matter
// that is not YAML, said so) is in the system prompt as before. The front
// matters are Claude Code's documented forms (code.claude.com/docs/en/memory,
// "Path-specific rules"): a YAML list of quoted globs, one glob, braces.
func TestPathRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		rule    string
		files   map[string]string // more project files
		prompt  bool              // the rule is in the system prompt
		why     string            // its sentence there
		matches map[string]bool   // file → the rule (and its imports) given for it
		given   string            // its text given, without the front matter
	}{
		{
			name:    "a list of globs",
			rule:    "---\npaths:\n  - \"src/api/**/*.ts\"\n  - \"tests/**/*.test.ts\"\n---\n# API rules\nValidate every input.\n",
			matches: map[string]bool{"src/api/users/get.ts": true, "tests/a/b.test.ts": true, "src/web/app.ts": false, "README.md": false},
			given:   "# API rules\nValidate every input.",
		},
		{
			name:    "one glob with braces",
			rule:    "---\npaths: src/**/*.{ts,tsx}\n---\nUse strict mode.",
			matches: map[string]bool{"src/a.tsx": true, "src/x/y.ts": true, "src/a.js": false, "lib/a.ts": false},
			given:   "Use strict mode.",
		},
		{
			name:    "an inline list, a ./ glob, an import",
			rule:    "---\npaths: [\"./docs/**\", \"*.md\"]\n---\nWrite short sentences. @../../style/prose.md",
			files:   map[string]string{"style/prose.md": "IMPORTED STYLE"},
			matches: map[string]bool{"docs/guide/intro.md": true, "NOTES.md": true, "src/NOTES.md": false},
			given:   "Write short sentences.",
		},
		{
			name:   "front matter without paths",
			rule:   "---\ndescription: house style\n---\nTabs, not spaces.",
			prompt: true,
		},
		{
			name:   "no front matter",
			rule:   "Tabs, not spaces.",
			prompt: true,
		},
		{
			name:   "front matter that is not YAML",
			rule:   "---\npaths:\n  - **/*.ts\n---\nTabs, not spaces.",
			prompt: true,
			why:    "Its front matter is not valid YAML, so the whole file is given, for every file",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := map[string]string{"AGENTS.md": "root", ".claude/rules/r.md": c.rule}
			for k, v := range c.files {
				files[k] = v
			}
			tree(t, dir, "", files)
			inPrompt := Load("", dir)
			rules := PathRules("", dir, inPrompt)
			var prompt strings.Builder
			for _, f := range inPrompt {
				if f.Name == ".claude/rules/r.md" && (f.State != InForce || !strings.Contains(f.Why, c.why)) {
					t.Errorf("in the system prompt: %s %s (%s)", f.Name, f.State, f.Why)
				}
				prompt.WriteString(f.Text)
			}
			if in := strings.Contains(prompt.String(), strings.TrimSpace(strings.SplitN(c.rule, "---\n", 3)[len(strings.SplitN(c.rule, "---\n", 3))-1])); in != c.prompt {
				t.Errorf("the rule in the system prompt: %v, want %v", in, c.prompt)
			}
			if c.prompt {
				if len(rules) != 0 {
					t.Errorf("path rules: %+v", rules)
				}
				return
			}
			for file, want := range c.matches {
				framed := Framed(Matching(rules, file))
				if got := strings.Contains(framed, c.given); got != want {
					t.Errorf("%s: the rule given %v, want %v:\n%s", file, got, want, framed)
				}
				if want && (strings.Contains(framed, "paths:") || !strings.Contains(framed, "apply to files matching ")) {
					t.Errorf("%s: the front matter is given, or the frame does not name the globs:\n%s", file, framed)
				}
				if imports := strings.Contains(framed, "IMPORTED STYLE"); c.files != nil && imports != want {
					t.Errorf("%s: its import given %v, want %v", file, imports, want)
				}
			}
		})
	}
}
