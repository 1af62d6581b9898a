//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Lock locks the open file f with flock(2): waiting until it is free, or
// answering ErrBusy at once when wait is false. A signal that interrupts
// the wait (EINTR) is waited through.
func Lock(f *os.File, kind Kind, wait bool) error {
	how := syscall.LOCK_SH
	if kind == Exclusive {
		how = syscall.LOCK_EX
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	err := do(int(f.Fd()), how)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrBusy
	}
	return err
}

// Unlock lets go of f's lock.
func Unlock(f *os.File) error { return do(int(f.Fd()), syscall.LOCK_UN) }

func do(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
