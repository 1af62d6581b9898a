//go:build !linux || !cgo

package wailsbridge

// WatchFocus reports the window as focused: outside Linux Pilot does not
// track the focus yet, so it never notifies.
func WatchFocus(onChange func(active bool)) { onChange(true) }

// Present does nothing outside Linux (Wails' WindowShow does it there).
func Present() {}

// MarkUrgent does nothing outside Linux.
func MarkUrgent() {}

// WhenIdle runs fn in a goroutine at once outside Linux.
func WhenIdle(fn func()) { go fn() }
