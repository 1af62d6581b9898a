// Package cli runs Pilot without a window: `pilot version`, `pilot -p`,
// `pilot repl` and `pilot sessions ...` (see shared/UI-CONTRACT.md).
package cli

import (
	"context"
	"fmt"
	"io"

	"pilot/backend/version"
)

// IO is the terminal a command talks to.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

const usage = `Pilot, a desktop coding agent.

Usage:
  pilot                         open the window
  pilot version                 print version, commit and Wails version
  pilot help                    this text
`

// Wants reports whether args ask for a headless command rather than the
// window. The window's own flags (Wails' -assetdir, -devserver, ...) are
// not commands.
func Wants(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "version", "--version", "help", "--help", "-h":
		return true
	}
	return false
}

// Run executes a headless command and returns the process exit code.
func Run(_ context.Context, args []string, tio IO) int {
	switch args[0] {
	case "version", "--version":
		fmt.Fprint(tio.Stdout, version.Get().String())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(tio.Stdout, usage)
		return 0
	}
	fmt.Fprintf(tio.Stderr, "pilot: unknown command %q; run `pilot help` for the list\n", args[0])
	return 2
}
