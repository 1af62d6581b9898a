package flock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/flock"
)

// Two opens of one file exclude each other, in one process too; a shared
// lock admits another shared one; Unlock lets the other in.
func TestLockKinds(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b, c := open(), open(), open()
	if err := flock.Lock(a, flock.Shared, false); err != nil {
		t.Fatal(err)
	}
	if err := flock.Lock(b, flock.Shared, false); err != nil {
		t.Fatalf("a second shared lock: %v", err)
	}
	if err := flock.Lock(c, flock.Exclusive, false); !errors.Is(err, flock.ErrBusy) {
		t.Fatalf("an exclusive lock beside shared ones: %v, want ErrBusy", err)
	}
	for _, f := range []*os.File{a, b} {
		if err := flock.Unlock(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := flock.Lock(c, flock.Exclusive, false); err != nil {
		t.Fatalf("the exclusive lock once the others let go: %v", err)
	}
}
