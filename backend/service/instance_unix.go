//go:build unix

package service

import (
	"errors"
	"os"
	"syscall"
)

// lockInstance locks f exclusively if no other process holds it, else
// shared (waiting while another one holds it exclusively, for its own
// start-up repair).
func lockInstance(f *os.File) (alone bool, err error) {
	fd := int(f.Fd())
	err = flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, err
	}
	return false, flock(fd, syscall.LOCK_SH)
}

// shareLock turns the exclusive lock into a shared one.
func shareLock(f *os.File) error { return flock(int(f.Fd()), syscall.LOCK_SH) }

func flock(fd, how int) error {
	for {
		if err := syscall.Flock(fd, how); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
