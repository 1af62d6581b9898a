//go:build !windows

package main

// attachConsole: a Unix program always has the terminal it was started in.
func attachConsole() {}
