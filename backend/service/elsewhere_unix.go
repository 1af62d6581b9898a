//go:build unix

package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// lockMarker locks a marker exclusively. When it is held, either another
// process runs the session (its pid is alive: refused) or a reader holds it
// for a moment (readMarker): then it waits for the reader.
func lockMarker(f *os.File) error {
	fd := int(f.Fd())
	err := flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return err
	}
	var m marker
	if data, rerr := io.ReadAll(io.NewSectionReader(f, 0, 1<<16)); rerr == nil && json.Unmarshal(data, &m) == nil && m.Pid > 0 && m.Pid != os.Getpid() && syscall.Kill(m.Pid, 0) == nil {
		return fmt.Errorf("another Pilot process (pid %d) runs a turn of this session", m.Pid)
	}
	return flock(fd, syscall.LOCK_EX)
}

// markerHeld says whether another open file holds the marker (a shared
// lock it cannot take at once), taking and dropping the lock otherwise.
func markerHeld(f *os.File) bool {
	fd := int(f.Fd())
	err := flock(fd, syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		_ = flock(fd, syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}
