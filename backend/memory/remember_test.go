package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, line, want string
		changed                bool
	}{
		{"a new file", "", "Use pnpm.", "- Use pnpm.\n", true},
		{"after a list", "# Mine\n\n- Be brief.\n", "Use pnpm.", "# Mine\n\n- Be brief.\n- Use pnpm.\n", true},
		{"after a paragraph", "# Mine\n\nI like Go.", "Use pnpm.", "# Mine\n\nI like Go.\n\n- Use pnpm.\n", true},
		{"trailing blank lines", "Text.\n\n\n", "Use pnpm.", "Text.\n\n- Use pnpm.\n", true},
		{"already there", "# Mine\n- Use pnpm.\n- Be brief.\n", "Use pnpm.", "# Mine\n- Use pnpm.\n- Be brief.\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, changed := WithLine(tc.text, tc.line)
			if got != tc.want || changed != tc.changed {
				t.Errorf("WithLine(%q, %q) = %q, %v; want %q, %v", tc.text, tc.line, got, changed, tc.want, tc.changed)
			}
		})
	}
}

func TestRememberLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"  Use pnpm,\n  not npm.  ": "Use pnpm, not npm.",
		"- Answer in English.":      "Answer in English.",
		"\n\t\n":                    "",
	} {
		if got := RememberLine(in); got != want {
			t.Errorf("RememberLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUserFile: the first of the user's files that exists, else
// ~/.claude/CLAUDE.md.
func TestUserFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if name, abs := UserFile(home); name != "~/.claude/CLAUDE.md" || abs != filepath.Join(home, ".claude", "CLAUDE.md") {
		t.Errorf("none yet: %s %s", name, abs)
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "AGENTS.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if name, _ := UserFile(home); name != "~/.codex/AGENTS.md" {
		t.Errorf("only Codex's: %s", name)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude", "CLAUDE.md"), 0o755); err != nil { // a folder is not the file
		t.Fatal(err)
	}
	if name, _ := UserFile(home); name != "~/.codex/AGENTS.md" {
		t.Errorf("a folder named CLAUDE.md: %s", name)
	}
}

// TestProjectFile: AGENTS.md unless the project has only CLAUDE.md.
func TestProjectFile(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files []string // made at the root; a trailing / makes a folder
		want  string
	}{
		{"none yet", nil, "AGENTS.md"},
		{"only CLAUDE.md", []string{"CLAUDE.md"}, "CLAUDE.md"},
		{"both", []string{"CLAUDE.md", "AGENTS.md"}, "AGENTS.md"},
		{"only AGENTS.md", []string{"AGENTS.md"}, "AGENTS.md"},
		{"a folder named CLAUDE.md", []string{"CLAUDE.md/"}, "AGENTS.md"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range tc.files {
				var err error
				if strings.HasSuffix(f, "/") {
					err = os.Mkdir(filepath.Join(dir, f), 0o755)
				} else {
					err = os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if got := ProjectFile(dir); got != tc.want {
				t.Errorf("ProjectFile = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestWriteUser: the text replaces the file, its mode kept; a link the
// user made to their dotfiles stays a link, and its target is written; a
// missing folder is made.
func TestWriteUser(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dots := filepath.Join(home, "dotfiles", "CLAUDE.md")
	if err := os.MkdirAll(filepath.Dir(dots), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dots, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(home, ".claude", "CLAUDE.md")
	if err := os.Symlink(dots, link); err != nil {
		t.Fatal(err)
	}
	text, existed, mode, err := ReadUser(link)
	if err != nil || !existed || text != "old\n" || mode != 0o600 {
		t.Fatalf("ReadUser: %q %v %v %v", text, existed, mode, err)
	}
	if err := WriteUser(link, "new\n", mode); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(dots); string(b) != "new\n" {
		t.Errorf("the target holds %q", b)
	}
	if fi, _ := os.Stat(dots); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	fresh := filepath.Join(home, "other", ".codex", "AGENTS.md")
	if _, existed, mode, err := ReadUser(fresh); err != nil || existed || mode != 0o644 {
		t.Fatalf("missing: %v %v %v", existed, mode, err)
	}
	if err := WriteUser(fresh, "- x\n", 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "- x\n" {
		t.Errorf("new file holds %q", b)
	}
	if _, _, _, err := ReadUser(filepath.Join(home, "dotfiles")); err == nil {
		t.Error("a folder was read as the file")
	}
}
