//go:build bindings

package main

// noDisplay is false while `wails generate module` runs the binary to
// read its bindings: that needs no window.
func noDisplay() bool { return false }
