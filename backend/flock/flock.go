// Package flock holds the file-lock primitive Pilot's packages share: an
// advisory lock on an open file (flock(2) on Unix, LockFileEx on Windows).
// Two opens of one file lock each other out, in one process as in two,
// and the system lets go when the process ends, however it ends.
package flock

import (
	"errors"
	"os"
)

// ErrBusy is Lock's answer when it was not to wait and another open file
// holds the lock.
var ErrBusy = errors.New("the file is locked by another open file")

// Hold opens path (made with mode 0600 if missing) and waits until this
// open file holds an exclusive lock on it; unlock lets go and closes it.
func Hold(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := Lock(f, Exclusive, true); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = Unlock(f)
		f.Close()
	}, nil
}

// Kind is a lock's kind: shared (many readers) or exclusive (one).
type Kind bool

// The two kinds of lock.
const (
	Shared    Kind = false
	Exclusive Kind = true
)
