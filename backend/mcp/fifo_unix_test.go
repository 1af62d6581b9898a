//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The project's .mcp.json is read through the project's root: a link out
// of the project, /dev/zero and a FIFO are refused at once with a sentence
// naming the file; a link inside is followed. Adding a project server
// writes through the root too: a planted .mcp.json.tmp link is not
// followed out of the project.
func TestProjectFileThroughRoot(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := WriteFile(filepath.Join(outside, "other.json"), File{Servers: map[string]Server{"evil": {Command: "evil"}}}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		plant func(p string) error
		want  string
	}{
		"link out": {func(p string) error { return os.Symlink(filepath.Join(outside, "other.json"), p) }, "outside the project folder"},
		"zero":     {func(p string) error { return os.Symlink("/dev/zero", p) }, "a link to /dev/zero"},
		"fifo":     {func(p string) error { return syscall.Mkfifo(p, 0o644) }, "named pipe"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := c.plant(ProjectPath(dir)); err != nil {
				t.Fatal(err)
			}
			_, _, err := ReadProject(dir)
			if err == nil || !strings.HasPrefix(err.Error(), ".mcp.json was not read: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadProject: %v", err)
			}
			if _, err := Load(t.TempDir(), dir); err == nil {
				t.Error("Load read the refused file")
			}
		})
	}
	dir := t.TempDir()
	if err := WriteFile(filepath.Join(dir, "conf", "mcp.json"), File{Servers: map[string]Server{"in": {Command: "in"}}}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("conf/mcp.json", ProjectPath(dir)); err != nil {
		t.Fatal(err)
	}
	if f, _, err := ReadProject(dir); err != nil || f.Servers["in"].Command != "in" {
		t.Errorf("a link inside: %+v, %v", f, err)
	}
	plain := t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.Symlink(victim, filepath.Join(plain, ProjectFile+".tmp")); err != nil {
		t.Fatal(err)
	}
	if _, err := Put(t.TempDir(), plain, ScopeProject, "s", Server{Command: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("adding a project server wrote through a planted link out of the project")
	}
}
