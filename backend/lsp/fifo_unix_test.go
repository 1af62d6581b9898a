//go:build unix

package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/projectroot"
)

func TestReadSourceTakesRegularFilesUpToTheCap(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	write(t, dir, map[string]string{"ok.go": "package m\n", "big.js": strings.Repeat("x", int(source.Limit)+1)})
	write(t, outside, map[string]string{"secret.go": "package secret\n"})
	root, err := projectroot.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, err := readSource(root, "ok.go"); err != nil || string(b) != "package m\n" {
		t.Fatalf("ok.go: %q, %v", b, err)
	}
	if _, err := readSource(root, "big.js"); !errors.Is(err, errNotSource) {
		t.Fatalf("a file over the cap: want errNotSource, got %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSource(root, "pipe.go"); !errors.Is(err, errNotSource) { // and it did not block
		t.Fatalf("a FIFO: want errNotSource, got %v", err)
	}
	// A link out of the project is not sent to the server.
	for name, target := range map[string]string{"out.go": filepath.Join(outside, "secret.go"), "zero.go": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		if b, err := readSource(root, name); !errors.Is(err, errNotSource) {
			t.Fatalf("%s: want errNotSource, got %q, %v", name, b, err)
		}
	}
	if _, err := readSource(root, "gone.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: want ErrNotExist, got %v", err)
	}
}
