package flock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// whole is the range locked: every byte a file can have. A LockFileEx
// lock covers a byte range; Unlock names the same one.
const whole = ^uint32(0)

// Lock locks the open file f with LockFileEx: waiting until it is free, or
// answering ErrBusy at once when wait is false. Windows locks by handle,
// so two opens in one process exclude each other as two processes do.
func Lock(f *os.File, kind Kind, wait bool) error {
	var flags uint32
	if kind == Exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, whole, whole, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return ErrBusy
	}
	return err
}

// Unlock lets go of f's lock.
func Unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, whole, whole, new(windows.Overlapped))
}
