//go:build linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The empty .git is made once, kept while a pod of this process uses it,
// removed by the last one when still empty; one holding something (the
// user's own git init meanwhile), and one Pilot did not make, stay.
func TestPlaceholderLife(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		before func(p string) // what is there before the first pod
		during func(p string) // what happens on the host meanwhile
		kept   bool
	}{
		{"made and removed", func(string) {}, func(string) {}, false},
		{"left by a crash, removed", func(p string) { os.Mkdir(p, 0o755) }, func(string) {}, false},
		{"filled meanwhile, kept", func(string) {}, func(p string) { os.WriteFile(filepath.Join(p, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644) }, true},
		{"a repository already, kept", func(p string) {
			os.Mkdir(p, 0o755)
			os.WriteFile(filepath.Join(p, "HEAD"), nil, 0o644)
		}, func(string) {}, true},
	} {
		p := filepath.Join(t.TempDir(), ".git")
		c.before(p)
		var holds []*placeholderHold
		for range 2 { // two pods of one folder
			h, err := holdPlaceholder(p)
			if err != nil || h == nil {
				t.Fatalf("%s: hold = %v, %v", c.name, h, err)
			}
			holds = append(holds, h)
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			t.Fatalf("%s: no folder while held: %v", c.name, err)
		}
		c.during(p)
		holds[0].release()
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s: removed while another pod holds it", c.name)
		}
		holds[1].release()
		if _, err := os.Stat(p); (err == nil) != c.kept {
			t.Errorf("%s: kept %v after the last pod, want %v", c.name, err == nil, c.kept)
		}
	}
}

// Two processes on one folder: the flock on the project folder, not this
// process's count, decides who removes the placeholder. Another process's
// pod is stood in for by a shared flock on its own descriptor of the
// folder (flock locks belong to the open file description, so one of this
// process's descriptors is another holder as another process's is).
func TestPlaceholderTwoProcesses(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	p := filepath.Join(project, ".git")
	h, err := holdPlaceholder(p)
	if err != nil || h == nil {
		t.Fatalf("hold = %v, %v", h, err)
	}
	other, err := os.Open(project)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		t.Fatalf("the other process's shared lock: %v", err)
	}
	h.release()
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		t.Fatalf("the placeholder was removed while another process's pod used it: %v", err)
	}
	// The other process ends: the next pod here finds the empty folder
	// (made by no pod of this process) and, last, removes it.
	other.Close()
	h, err = holdPlaceholder(p)
	if err != nil || h == nil {
		t.Fatalf("hold again = %v, %v", h, err)
	}
	h.release()
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the placeholder stayed after the last pod of the last process: %v", err)
	}
}
