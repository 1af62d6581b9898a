//go:build unix

package customagent

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// A project's agents are read through the project's root: a file that is
// a link out of the project, to /dev/zero, or a FIFO is a refused Problem
// saying so, never read; a .claude/agents that is itself a link out of
// the project is refused as a whole; a link inside is followed.
func TestProjectAgentsThroughRoot(t *testing.T) {
	t.Parallel()
	agent := func(name string) string {
		return "---\nname: " + name + "\ndescription: d\n---\nPrompt of " + name + "."
	}
	project, outside, other := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret.md"), agent("secret"))
	write(t, filepath.Join(project, "docs/kept.md"), agent("kept"))
	dir := filepath.Join(project, ".pilot/agents")
	write(t, filepath.Join(dir, "plain.md"), agent("plain"))
	for name, target := range map[string]string{"secret.md": filepath.Join(outside, "secret.md"), "zero.md": "/dev/zero", "kept.md": "../../docs/kept.md"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(other, "agents/theirs.md"), agent("theirs"))
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "agents"), filepath.Join(project, ".claude/agents")); err != nil {
		t.Fatal(err)
	}
	set := Load("", "", project)
	if got := set.Names(); !reflect.DeepEqual(got, []string{"kept", "plain"}) {
		t.Errorf("agents %v, want kept and plain", got)
	}
	refused := map[string]string{}
	for _, p := range set.Problems {
		if p.Refused {
			refused[filepath.Base(p.Path)] = p.Reason
		}
	}
	for name, want := range map[string]string{"secret.md": "outside the project folder", "zero.md": "a link to /dev/zero", "pipe.md": "named pipe", "agents": "outside the project folder"} {
		if !strings.Contains(refused[name], want) {
			t.Errorf("%s: %q, want %q (problems %+v)", name, refused[name], want, set.Problems)
		}
	}
}
