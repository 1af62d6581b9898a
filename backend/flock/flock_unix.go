//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Do calls flock(2) on fd with how (syscall.LOCK_SH, LOCK_EX, LOCK_UN,
// with LOCK_NB or not), again each time a signal interrupts it (EINTR).
func Do(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Hold opens path (made with mode 0600 if missing) and waits until this
// open file holds an exclusive lock on it; unlock lets go and closes it.
// Two opens of one file lock each other out, in one process as in two,
// and the kernel lets go when the process ends, however it ends.
func Hold(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := Do(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = Do(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
