package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files below base: a value "->TARGET" makes a symbolic link
// (TARGET with "$OUT" replaced by outside), anything else a file.
func tree(t *testing.T, base, outside string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(text, "->"); ok {
			if err := os.Symlink(strings.ReplaceAll(target, "$OUT", outside), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// got is "name state" per file, and the text given of each, by name.
func got(files []File) (list []string, text map[string]string) {
	text = map[string]string{}
	for _, f := range files {
		list = append(list, f.Name+" "+string(f.State))
		text[f.Name] = f.Text
	}
	return list, text
}

func TestLoad(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", MaxFileBytes+100)
	chain := map[string]string{"AGENTS.md": "@c1.md"}
	for i := 1; i <= 7; i++ {
		chain["c"+itoa(i)+".md"] = "hop " + itoa(i) + " @c" + itoa(i+1) + ".md"
	}
	cases := []struct {
		name     string
		home     map[string]string
		project  map[string]string
		want     []string          // "name state", in order; not found standard places omitted
		given    map[string]string // a file's text contains this
		notGiven []string          // no file's text contains these
		why      map[string]string // a file's Why contains this
	}{
		{
			name:     "every level in order, the most general first",
			home:     map[string]string{".claude/CLAUDE.md": "user claude", ".codex/AGENTS.md": "user codex"},
			project:  map[string]string{"AGENTS.md": "proj agents", "CLAUDE.md": "proj claude", "progress.md": "proj progress", "CLAUDE.local.md": "local", ".claude/rules/b.md": "rule b", ".claude/rules/a.md": "rule a", ".claude/rules/notes.txt": "not a rule", "sub/AGENTS.md": "nested"},
			want:     []string{"~/.claude/CLAUDE.md in force", "~/.codex/AGENTS.md in force", "AGENTS.md in force", "CLAUDE.md in force", "progress.md in force", "CLAUDE.local.md in force", ".claude/rules/a.md in force", ".claude/rules/b.md in force"},
			given:    map[string]string{"~/.claude/CLAUDE.md": "user claude", ".claude/rules/a.md": "rule a", "CLAUDE.local.md": "local"},
			notGiven: []string{"nested", "not a rule"},
		},
		{
			name:    "standard places not found",
			project: map[string]string{"AGENTS.md": "a", "CLAUDE.md": "  \n"},
			want:    []string{"~/.claude/CLAUDE.md not found", "~/.codex/AGENTS.md not found", "AGENTS.md in force", "CLAUDE.md not found", "progress.md not found", "CLAUDE.local.md not found"},
			why:     map[string]string{"CLAUDE.md": "empty"},
		},
		{
			name:    "imports: relative, home, nested folders, after their importer",
			home:    map[string]string{".claude/prefs.md": "my prefs @more.md", ".claude/more.md": "more prefs"},
			project: map[string]string{"AGENTS.md": "Read @docs/style.md and @~/.claude/prefs.md.\n", "docs/style.md": "style @./deep/x.md", "docs/deep/x.md": "deep x"},
			want:    []string{"AGENTS.md in force", "docs/style.md in force", "docs/deep/x.md in force", "~/.claude/prefs.md in force", "~/.claude/more.md in force"},
			given:   map[string]string{"docs/deep/x.md": "deep x", "~/.claude/more.md": "more prefs"},
		},
		{
			name:     "imports in code are not imports",
			project:  map[string]string{"AGENTS.md": "Run `npm @types/x` and\n```\n@secret.md\n```\nmail me@host.md\n", "secret.md": "SECRET", "types/x": "T", "host.md": "H"},
			want:     []string{"AGENTS.md in force"},
			notGiven: []string{"SECRET", "H"},
		},
		{
			name:     "imports outside the project and the user's folders are refused, never read",
			home:     map[string]string{".ssh/id": "SSH-KEY", ".claude/CLAUDE.md": "@../.ssh/id @/etc/passwd @link.md", ".claude/link.md": "->$OUT/secret.md"},
			project:  map[string]string{"AGENTS.md": "@../outside.md @/etc/passwd @~/.ssh/id @out.md", "out.md": "->$OUT/secret.md"},
			want:     []string{"~/.claude/CLAUDE.md in force", "../.ssh/id refused", "/etc/passwd refused", "~/.claude/link.md refused", "AGENTS.md in force", "../outside.md refused", "/etc/passwd refused", "~/.ssh/id refused", "out.md refused"},
			notGiven: []string{"SSH-KEY", "OUTSIDE-SECRET", "root:"},
			why:      map[string]string{"../outside.md": "outside the project folder and your own folders", "out.md": "a link to", "~/.claude/link.md": "leads outside"},
		},
		{
			name:    "a cycle is refused with a sentence",
			project: map[string]string{"AGENTS.md": "a @b.md", "b.md": "b @c.md", "c.md": "c @AGENTS.md"},
			want:    []string{"AGENTS.md in force", "b.md in force", "c.md in force", "AGENTS.md refused", "CLAUDE.md not found"},
			why:     map[string]string{"AGENTS.md": "import cycle"},
		},
		{
			name:     "imports stop 5 hops deep",
			project:  chain,
			want:     []string{"AGENTS.md in force", "c1.md in force", "c2.md in force", "c3.md in force", "c4.md in force", "c5.md in force", "c6.md refused"},
			notGiven: []string{"hop 6"},
			why:      map[string]string{"c6.md": "5 hops deep"},
		},
		{
			name:    "shadowed: a link to a file in force, a file that only imports one, a second import",
			project: map[string]string{"AGENTS.md": "the rules @x.md", "CLAUDE.md": "@AGENTS.md\n", "progress.md": "->AGENTS.md", "CLAUDE.local.md": "local @x.md", "x.md": "x"},
			want:    []string{"AGENTS.md in force", "x.md in force", "CLAUDE.md shadowed", "progress.md shadowed", "CLAUDE.local.md in force", "x.md shadowed"},
			why:     map[string]string{"CLAUDE.md": "only imports AGENTS.md", "progress.md": "already in force as AGENTS.md"},
		},
		{
			name:    "too big: a file is cut, imports count in the budget",
			project: map[string]string{"AGENTS.md": big, "CLAUDE.md": "@i1.md @i2.md @i3.md @i4.md", "i1.md": big[:MaxFileBytes-1] + "1", "i2.md": big[:MaxFileBytes-1] + "2", "i3.md": big[:MaxFileBytes-1] + "3", "i4.md": big[:MaxFileBytes-1] + "4"},
			want:    []string{"AGENTS.md cut", "CLAUDE.md in force", "i1.md in force", "i2.md in force", "i3.md cut", "i4.md cut", "progress.md not found"},
			why:     map[string]string{"AGENTS.md": "first 32 KiB", "i4.md": "128 KiB"},
		},
		{
			name:     "project files linked out, FIFOs and folders are refused",
			project:  map[string]string{"AGENTS.md": "->$OUT/secret.md", "CLAUDE.md/x": "a folder", ".claude/rules": "->$OUT"},
			want:     []string{"AGENTS.md refused", "CLAUDE.md refused", "progress.md not found", "CLAUDE.local.md not found", ".claude/rules refused"},
			notGiven: []string{"OUTSIDE-SECRET"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			home, dir, outside := filepath.Join(base, "home"), filepath.Join(base, "proj"), filepath.Join(base, "outside")
			tree(t, outside, outside, map[string]string{"secret.md": "OUTSIDE-SECRET"})
			tree(t, home, outside, c.home)
			tree(t, dir, outside, c.project)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			files := Load(home, dir)
			list, text := got(files)
			want := strings.Join(c.want, "\n")
			if all := strings.Join(list, "\n"); !strings.Contains("\n"+all+"\n", "\n"+want+"\n") && !sameAfterFound(list, c.want) {
				t.Errorf("files:\n%s\nwant (in order):\n%s", all, want)
			}
			for name, s := range c.given {
				if !strings.Contains(text[name], s) {
					t.Errorf("%s gives %q, want %q in it", name, text[name], s)
				}
			}
			var prompt strings.Builder
			for _, f := range files {
				if f.Given() {
					prompt.WriteString(f.Text)
				}
			}
			for _, s := range c.notGiven {
				if strings.Contains(prompt.String(), s) {
					t.Errorf("%q reached the model", s)
				}
			}
			for name, s := range c.why {
				found := false
				for _, f := range files {
					found = found || f.Name == name && strings.Contains(f.Why, s)
				}
				if !found {
					t.Errorf("no %s says %q: %+v", name, s, files)
				}
			}
			total := 0
			for _, f := range files {
				total += len(f.Text)
			}
			if total > Budget {
				t.Errorf("%d bytes given, over the budget", total)
			}
		})
	}
}

// sameAfterFound: list without its "not found" entries the case did not
// name is want.
func sameAfterFound(list, want []string) bool {
	named := map[string]bool{}
	for _, w := range want {
		named[w] = true
	}
	var kept []string
	for _, l := range list {
		if strings.HasSuffix(l, " not found") && !named[l] {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n") == strings.Join(want, "\n")
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestNested(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	tree(t, outside, outside, map[string]string{"secret.md": "OUTSIDE-SECRET"})
	tree(t, dir, outside, map[string]string{
		"AGENTS.md": "root", "a/AGENTS.md": "for a @notes.md", "a/notes.md": "a notes", "a/CLAUDE.md": "->AGENTS.md",
		"a/b/CLAUDE.md": "for b", "a/b/c/AGENTS.md": "->$OUT/secret.md",
	})
	files := Nested("", dir, Folders("a/b/c"), Load("", dir))
	list, _ := got(files)
	want := "a/AGENTS.md in force\na/notes.md in force\na/CLAUDE.md shadowed\na/b/CLAUDE.md in force\na/b/c/AGENTS.md refused"
	if strings.Join(list, "\n") != want {
		t.Errorf("nested:\n%s\nwant:\n%s", strings.Join(list, "\n"), want)
	}
	framed := Framed(files)
	for _, s := range []string{"<instructions from a/AGENTS.md apply to files under a/>", "for a", "<instructions from a/notes.md (imported by a/AGENTS.md) apply to files under a/>", "<instructions from a/b/CLAUDE.md apply to files under a/b/>"} {
		if !strings.Contains(framed, s) {
			t.Errorf("framed text lacks %q:\n%s", s, framed)
		}
	}
	if strings.Contains(framed, "OUTSIDE-SECRET") || strings.Contains(framed, "root") {
		t.Errorf("framed text has what it should not:\n%s", framed)
	}
	if got := Folders("."); got != nil {
		t.Errorf("Folders(.) = %v", got)
	}
}

func TestImportsOf(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"@a.md":                            "a.md",
		"see @docs/x.md, then @y.md.":      "docs/x.md y.md",
		"me@host.md @@x @#y @/ @~/z.md":    "~/z.md",
		"`x @a.md` ``x ` @b.md` y`` @c.md": "c.md",
		"~~~\n@a.md\n~~~\n@b.md":           "b.md",
		`@my\ file.md @a.md @a.md`:         "my file.md a.md",
		"  ```go\n@in.md\n  ```\n@out.md":  "out.md",
	} {
		if got := strings.Join(importsOf(text), " "); got != want {
			t.Errorf("importsOf(%q) = %q, want %q", text, got, want)
		}
	}
}
