package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"pilot/backend/flock"
)

// lockFile opens path (made if missing) and locks it for this process
// (backend/flock), calling busy once when another process holds it and
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
	err = flock.Lock(f, flock.Exclusive, false)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, flock.ErrBusy) {
		f.Close()
		return nil, fmt.Errorf("locking the folder: %w", err)
	}
	busy()
	done := make(chan error, 1)
	go func() { done <- flock.Lock(f, flock.Exclusive, true) }()
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
	_ = flock.Unlock(f)
	f.Close()
}
