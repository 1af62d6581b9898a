//go:build !unix

package service

import (
	"errors"
	"os"
)

// lockMarker: without flock(2) no process marks its runs for the others.
func lockMarker(*os.File) error {
	return errors.New("this system has no flock(2): the window shows other processes' sessions as the store saved them")
}

// markerHeld: never (no process marks its runs).
func markerHeld(*os.File) bool { return false }
