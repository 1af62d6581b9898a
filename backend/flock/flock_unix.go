//go:build unix

package flock

import (
	"errors"
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
