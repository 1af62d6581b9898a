//go:build unix

package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"pilot/backend/flock"
)

// lockFile opens path (made if missing) and locks it for this process
// with flock(2), calling busy once when another process holds it and
// waiting until it is released or ctx ends. The kernel releases the lock
// when the process ends, however it ends, so a killed Pilot never leaves
// a folder locked.
func lockFile(ctx context.Context, path string, busy func()) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("making the folder of the folder locks: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the folder's lock: %w", err)
	}
	fd := int(f.Fd())
	err = flock.Do(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return nil, fmt.Errorf("locking the folder: %w", err)
	}
	busy()
	done := make(chan error, 1)
	go func() { done <- flock.Do(fd, syscall.LOCK_EX) }()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking the folder: %w", err)
		}
		return f, nil
	case <-ctx.Done():
		go func() { // the blocked flock cannot be interrupted: let it end, then let go
			<-done
			f.Close()
		}()
		return nil, ctx.Err()
	}
}

// unlockFile releases the lock and closes the file.
func unlockFile(f *os.File) {
	_ = flock.Do(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}
