//go:build unix

package frontmatter

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/projectroot"
)

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
