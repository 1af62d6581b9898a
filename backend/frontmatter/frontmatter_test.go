package frontmatter

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"

	"pilot/backend/projectroot"
)

func TestCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, front, body string }{
		{"name: a\n---\nbody\n", "name: a", "body\n"},
		{"---\nbody", "", "body"},
		{"name: a\n---", "name: a", ""},
	} {
		front, body, ok := Cut(c.in)
		if !ok || front != c.front || body != c.body {
			t.Errorf("Cut(%q) = %q, %q, %v", c.in, front, body, ok)
		}
	}
	if _, _, ok := Cut("name: a\nno closing line\n"); ok {
		t.Error("an unclosed front matter was cut")
	}
}

func TestTools(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		yaml string
		want Tools
	}{
		{"tools: Read, Grep Bash(git diff:*)", Tools{Names: []string{"Read", "Grep", "Bash(git diff:*)"}, Set: true}},
		{"tools:\n  - Read\n  - Bash(npm run test:*)", Tools{Names: []string{"Read", "Bash(npm run test:*)"}, Set: true}},
		{"tools:", Tools{}},
		{"other: 1", Tools{}},
	} {
		var v struct {
			Tools Tools `yaml:"tools"`
		}
		if err := yaml.Unmarshal([]byte(c.yaml), &v); err != nil || !reflect.DeepEqual(v.Tools, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.yaml, v.Tools, err, c.want)
		}
	}
	var v struct {
		Tools Tools `yaml:"tools"`
	}
	if err := yaml.Unmarshal([]byte("tools: {a: b}"), &v); err == nil || !strings.Contains(err.Error(), "must be a YAML list") {
		t.Errorf("a map of tools: %v", err)
	}
}

// A folder reads its files bounded, regular files only; the project's
// through its root, so a link out of the project is refused (and said as
// such), a link inside followed; the user's as they are.
func TestFolderReadFile(t *testing.T) {
	t.Parallel()
	project, outside := t.TempDir(), t.TempDir()
	dir := filepath.Join(project, "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.md"), make([]byte, 3<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "out.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("big.md", filepath.Join(dir, "in.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := projectroot.New(project)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	small := projectroot.Kind{Name: "a test file", Limit: 2 << 10, Fix: "cut it"}
	big := projectroot.Kind{Name: "a test file", Limit: 4 << 10}
	for _, f := range []Folder{{Path: dir, Root: root, Rel: "agents"}, {Path: dir}} {
		project := f.Root != nil
		if _, refused, err := f.ReadFile("big.md", small); err == nil || !refused || err.Error() != "it is larger than the 2 KiB a test file may have: cut it" {
			t.Errorf("project %v: too big: %v (refused %v)", project, err, refused)
		}
		if b, _, err := f.ReadFile("in.md", big); err != nil || len(b) != 3<<10 {
			t.Errorf("project %v: a link inside: %d bytes, %v", project, len(b), err)
		}
		if _, refused, err := f.ReadFile("fifo.md", big); err == nil || !refused || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("project %v: a FIFO: %v", project, err)
		}
		b, refused, err := f.ReadFile("out.md", big)
		switch {
		case project && (err == nil || !refused || !strings.Contains(err.Error(), "outside the project folder")):
			t.Errorf("a link out of the project was read: %q, %v", b, err)
		case !project && (err != nil || string(b) != "SECRET"):
			t.Errorf("the user's own link was not followed: %q, %v", b, err)
		}
	}
}

func TestFirstOfEach(t *testing.T) {
	t.Parallel()
	type item struct{ name, path string }
	var shadowed []string
	got := FirstOfEach([]item{{"a", "1"}, {"b", "2"}, {"a", "3"}}, func(i item) (string, string) { return i.name, i.path },
		func(i item, first string) { shadowed = append(shadowed, i.path+" by "+first) })
	if !reflect.DeepEqual(got, []item{{"a", "1"}, {"b", "2"}}) || !reflect.DeepEqual(shadowed, []string{"3 by 1"}) {
		t.Errorf("kept %v, shadowed %v", got, shadowed)
	}
}
