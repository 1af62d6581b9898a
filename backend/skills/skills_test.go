package skills

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pilot/backend/frontmatter"
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

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n\nDo the " + name + " thing.\n"
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, folder string
		want               Skill
		err                string // part of the sentence; "" for none
	}{
		{name: "plain", text: skillMD("pdf", "Fill PDF forms."), folder: "pdf",
			want: Skill{Name: "pdf", Description: "Fill PDF forms.", Body: "# pdf\n\nDo the pdf thing."}},
		{name: "name from folder", text: "---\ndescription: Does it.\n---\nBody", folder: "from-folder",
			want: Skill{Name: "from-folder", Description: "Does it.", Body: "Body"}},
		{name: "CRLF and BOM", text: "\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\nx\r\n", folder: "a",
			want: Skill{Name: "a", Description: "b", Body: "x"}},
		{name: "folded description", text: "---\nname: a\ndescription: >\n  one\n  two\n---\n", folder: "a",
			want: Skill{Name: "a", Description: "one two"}},
		{name: "allowed-tools string", text: "---\nname: a\ndescription: b\nallowed-tools: Read, Grep Bash(git diff:*)\n---\n", folder: "a",
			want: Skill{Name: "a", Description: "b", AllowedTools: []string{"Read", "Grep", "Bash(git diff:*)"}}},
		{name: "allowed-tools list", text: "---\nname: a\ndescription: b\nallowed-tools:\n  - Read\n  - Bash(npm run test:*)\n---\n", folder: "a",
			want: Skill{Name: "a", Description: "b", AllowedTools: []string{"Read", "Bash(npm run test:*)"}}},
		{name: "other keys allowed", text: "---\nname: a\ndescription: b\nlicense: MIT\nmetadata:\n  v: 1\n---\n", folder: "a",
			want: Skill{Name: "a", Description: "b"}},
		{name: "no front matter", text: "# pdf\nDo it.", folder: "pdf", err: "no front matter"},
		{name: "unclosed", text: "---\nname: a\ndescription: b\n", folder: "a", err: "not closed"},
		{name: "bad yaml", text: "---\nname: a\ndescription: b: c\n---\n", folder: "a", err: "not valid YAML"},
		{name: "no description", text: "---\nname: a\n---\nbody", folder: "a", err: "no description"},
		{name: "bad name", text: "---\nname: My Skill\ndescription: b\n---\n", folder: "a", err: `"My Skill" is not a skill name`},
		{name: "long name", text: "---\nname: " + strings.Repeat("a", 65) + "\ndescription: b\n---\n", folder: "a", err: "is not a skill name"},
		{name: "long description", text: "---\nname: a\ndescription: " + strings.Repeat("b", 1025) + "\n---\n", folder: "a", err: "more than 1024"},
		{name: "bad allowed-tools", text: "---\nname: a\ndescription: b\nallowed-tools: {x: 1}\n---\n", folder: "a", err: "allowed-tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse([]byte(tc.text), tc.folder)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse error = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.want.Name || got.Description != tc.want.Description || got.Body != tc.want.Body || !slices.Equal(got.AllowedTools, tc.want.AllowedTools) {
				t.Errorf("Parse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Load finds the skills of the four folders; the user's win over the
// project's of the same name, and every SKILL.md not used is listed with a
// sentence.
func TestLoadFoldersShadowsAndProblems(t *testing.T) {
	t.Parallel()
	home, pilotHome, project := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".claude", "skills", "review", "SKILL.md"), skillMD("review", "The user's review skill."))
	write(t, filepath.Join(pilotHome, "skills", "notes", "SKILL.md"), skillMD("notes", "Pilot's own user skill."))
	write(t, filepath.Join(project, ".pilot", "skills", "deploy", "SKILL.md"), skillMD("deploy", "The project's deploy skill."))
	write(t, filepath.Join(project, ".claude", "skills", "pdf", "SKILL.md"), skillMD("pdf", "The project's pdf skill."))
	write(t, filepath.Join(project, ".claude", "skills", "review", "SKILL.md"), skillMD("review", "A project skill that would take the user's name."))
	write(t, filepath.Join(project, ".claude", "skills", "broken", "SKILL.md"), "no front matter")
	write(t, filepath.Join(project, ".claude", "skills", "empty", "notes.txt"), "not a skill")
	write(t, filepath.Join(project, ".claude", "skills", "README.md"), "a loose file is not a skill")

	set := Load(home, pilotHome, project)
	var got []string
	for _, k := range set.Skills {
		got = append(got, k.Name+"@"+string(k.Scope))
	}
	want := []string{"deploy@pilot-project", "notes@pilot-user", "pdf@project", "review@user"}
	if !slices.Equal(got, want) {
		t.Errorf("skills = %v, want %v", got, want)
	}
	if k, _ := set.Find("review"); k.Description != "The user's review skill." {
		t.Errorf("review = %+v, want the user's", k)
	}
	reasons := map[string]string{}
	for _, p := range set.Problems {
		reasons[filepath.Base(filepath.Dir(p.Path))+"/"+filepath.Base(p.Path)] = p.Reason
	}
	for path, part := range map[string]string{
		"review/SKILL.md": "has the same name (review) and wins",
		"broken/SKILL.md": "no front matter",
		"skills/empty":    "has no SKILL.md",
	} {
		if !strings.Contains(reasons[path], part) {
			t.Errorf("problem of %s = %q, want one saying %q (all: %v)", path, reasons[path], part, reasons)
		}
	}
	if len(set.Problems) != 3 {
		t.Errorf("%d problems, want 3: %+v", len(set.Problems), set.Problems)
	}
}

func TestLoadNothing(t *testing.T) {
	t.Parallel()
	set := Load("", "", t.TempDir())
	if len(set.Skills) != 0 || len(set.Problems) != 0 {
		t.Errorf("Load of empty folders = %+v", set)
	}
	if Prompt(set.Skills) != "" {
		t.Error("Prompt of no skills is not empty")
	}
}

// An unreadable SKILL.md (too big, not a regular file) is a problem, not
// a skill.
func TestLoadTooBig(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	write(t, filepath.Join(project, ".claude", "skills", "big", "SKILL.md"), skillMD("big", "x")+strings.Repeat("a", int(skillFile.Limit)))
	set := Load("", "", project)
	if len(set.Skills) != 0 || len(set.Problems) != 1 || !strings.Contains(set.Problems[0].Reason, "KiB") {
		t.Errorf("Load = %+v, want one problem about the size", set)
	}
}

func TestPromptHasNamesAndDescriptionsOnly(t *testing.T) {
	t.Parallel()
	p := Prompt([]Skill{{Name: "pdf", Description: "Fill PDF forms.", Body: "SECRET BODY"}})
	if !strings.Contains(p, "- pdf: Fill PDF forms.") || strings.Contains(p, "SECRET BODY") {
		t.Errorf("Prompt = %q", p)
	}
}

func TestFilesAndReadFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pdf")
	write(t, filepath.Join(dir, "SKILL.md"), skillMD("pdf", "d"))
	write(t, filepath.Join(dir, "forms.md"), "# Forms\n")
	write(t, filepath.Join(dir, "scripts", "fill.py"), "print(1)\n")
	write(t, filepath.Join(dir, ".git", "HEAD"), "hidden")
	write(t, filepath.Join(dir, "logo.png"), "\x89PNG\x00\x00")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	write(t, outside, "the user's secret")
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	k := Skill{Name: "pdf", Dir: dir}
	files, more, err := k.Files()
	if err != nil || more {
		t.Fatal(err, more)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
	}
	if want := []string{"forms.md", "link.txt", "logo.png", "scripts/fill.py"}; !slices.Equal(names, want) {
		t.Errorf("Files = %v, want %v", names, want)
	}
	if text, cut, err := k.ReadFile("scripts/fill.py"); err != nil || cut || text != "print(1)\n" {
		t.Errorf("ReadFile(scripts/fill.py) = %q, %v, %v", text, cut, err)
	}
	for _, rel := range []string{"../secret.txt", "/etc/passwd", "scripts/../../x"} {
		if _, _, err := k.ReadFile(rel); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%q) error = %v, want ErrOutside", rel, err)
		}
	}
	if text, _, err := k.ReadFile("link.txt"); err == nil {
		t.Errorf("ReadFile through a link out of the folder = %q, want an error", text)
	}
	if _, _, err := k.ReadFile("logo.png"); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("ReadFile(logo.png) error = %v, want binary", err)
	}
	if _, _, err := k.ReadFile("scripts"); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("ReadFile(scripts) error = %v, want a folder", err)
	}
}

func TestReadFileCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "big.md"), strings.Repeat("a", MaxFileRead+10))
	text, cut, err := Skill{Dir: dir}.ReadFile("big.md")
	if err != nil || !cut || len(text) != MaxFileRead {
		t.Errorf("ReadFile(big.md) = %d bytes, cut %v, %v", len(text), cut, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(skillMD("pdf", "d")), "pdf")
	f.Add([]byte("---\nallowed-tools: [a, b]\n---\n"), "x")
	f.Add([]byte("---\n---"), "a")
	f.Fuzz(func(t *testing.T, b []byte, folder string) {
		k, err := Parse(b, folder)
		if err != nil {
			return
		}
		if !naming.Valid.MatchString(k.Name) || len(k.Name) > frontmatter.MaxName || k.Description == "" || len(k.Description) > frontmatter.MaxDescription {
			t.Errorf("Parse accepted %+v", k)
		}
	})
}
