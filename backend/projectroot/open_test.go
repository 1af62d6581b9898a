package projectroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenReadNonRegular: a FIFO (directly or through a link) is refused
// at once, without waiting for a writer, with a sentence that says what
// it is; ReadAtMost bounds a read.
func TestOpenReadNonRegular(t *testing.T) {
	t.Parallel()
	r, _ := project(t)
	if err := syscall.Mkfifo(filepath.Join(r.Dir(), "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../fifo", filepath.Join(r.Dir(), "src/fifolink")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fifo", "src/../fifo", "in/../fifo", "src/fifolink"} {
		f, _, _, err := r.OpenRead(p)
		if f != nil {
			f.Close()
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe (FIFO)") {
			t.Errorf("OpenRead(%q) = %v, want a refusal naming a FIFO", p, err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), "big.txt"), []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, _, err := r.OpenRead("big.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := ReadAtMost(f, fi, 999); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAtMost over the limit: %v", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadAtMost(f, nil, 1000); err != nil || len(b) != 1000 {
		t.Errorf("ReadAtMost at the limit: %d bytes, %v", len(b), err)
	}
}
