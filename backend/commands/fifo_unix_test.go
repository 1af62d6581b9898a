//go:build unix

package commands

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// The project's command files are read through its root: a file that is
// a link out of the project (to a secret, to /dev/zero) or a FIFO is not
// read, is a Problem naming it and what to do, and /name of it says so
// instead of expanding; a link inside the project is followed. The
// user's own folders follow their links.
func TestProjectFilesThroughRoot(t *testing.T) {
	t.Parallel()
	home, user, proj, outside := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	write(t, secret, "THE-SECRET")
	write(t, filepath.Join(proj, "docs/inside.md"), "Inside $ARGUMENTS")
	dir := filepath.Join(proj, ".claude/commands")
	write(t, filepath.Join(dir, "ok.md"), "fine")
	for name, target := range map[string]string{"x.md": secret, "zero.md": "/dev/zero", "in.md": "../../docs/inside.md"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(user, "real.md"), "the user's own")
	if err := os.MkdirAll(filepath.Join(user, ".claude/commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(user, "real.md"), filepath.Join(user, ".claude/commands/mine.md")); err != nil {
		t.Fatal(err)
	}
	cmds, problems := List(home, user, proj)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
		if strings.Contains(c.Body, "THE-SECRET") {
			t.Errorf("a link out of the project was read: %+v", c)
		}
	}
	if !reflect.DeepEqual(names, []string{"in", "mine", "ok"}) {
		t.Errorf("commands %v", names)
	}
	why := map[string]string{}
	for _, p := range problems {
		why[p.Name] = p.Err.Error()
	}
	for name, want := range map[string]string{
		"x":    ".claude/commands/x.md was not read: it is a link to " + secret + ", outside the project folder. Replace the link with the file itself.",
		"zero": ".claude/commands/zero.md was not read: it is a link to /dev/zero, outside the project folder. Replace the link with the file itself.",
		"fifo": ".claude/commands/fifo.md was not read: it is a named pipe (FIFO), not a regular file. Replace it with a regular file, or remove it.",
	} {
		if why[name] != want {
			t.Errorf("%s: %q, want %q", name, why[name], want)
		}
	}
	if _, _, err := ExpandText(home, user, proj, "/x now"); err == nil || errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "/x was not run: .claude/commands/x.md was not read") {
		t.Errorf("/x: %v", err)
	}
	if out, ok, err := ExpandText(home, user, proj, "/in here"); err != nil || !ok || out != "Inside here" {
		t.Errorf("/in: %q %v %v", out, ok, err)
	}
}
