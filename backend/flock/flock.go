// Package flock holds the file-lock primitive Pilot's packages share:
// flock(2), called again while a signal interrupts it.
package flock
