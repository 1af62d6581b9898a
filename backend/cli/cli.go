// Package cli runs Pilot without a window: `pilot version`, `pilot -p`,
// `pilot repl` and `pilot sessions ...` (see shared/UI-CONTRACT.md).
package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"pilot/backend/paths"
	"pilot/backend/store"
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
  pilot -p "PROMPT" [--project DIR] [--resume ID] [--approve ask|edits|all|none]
           [--provider P] [--model M] [--json]
                                one headless turn: the answer on stdout, tools on stderr
  pilot repl [--project DIR] [--resume ID] [--approve MODE] [--provider P] [--model M]
                                a conversation in the terminal
  pilot sessions list|show|search|export|import|changes ...
                                past sessions (pilot sessions help)
  pilot sessions changes ID [--json]
                                what the session changed: every file each change or command
                                created, modified or deleted, in order
  pilot rewind SESSION --to MESSAGE_ID [--code|--conversation|--both] [--force]
                                restore files and/or the conversation to just before a message
  pilot mcp list|get NAME|add NAME ...|remove NAME|trust [--scope user|project]
                                MCP servers (pilot mcp help)
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
	case "version", "--version", "help", "--help", "-h", "-p", "--prompt", "repl", "sessions", "rewind", "mcp":
		return true
	}
	return strings.HasPrefix(args[0], "-p=") || strings.HasPrefix(args[0], "--prompt=")
}

// Run executes a headless command and returns the process exit code.
func Run(ctx context.Context, args []string, tio IO) int {
	if strings.HasPrefix(args[0], "-p=") || strings.HasPrefix(args[0], "--prompt=") {
		return Prompt(ctx, args, tio)
	}
	switch args[0] {
	case "-p", "--prompt":
		return Prompt(ctx, args, tio)
	case "repl":
		return Repl(ctx, args[1:], tio)
	case "sessions":
		return runSessions(ctx, args[1:], tio)
	case "rewind":
		return runRewind(ctx, args[1:], tio)
	case "mcp":
		return runMCP(ctx, args[1:], tio)
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

// runSessions opens the database under PILOT_HOME for `pilot sessions`.
func runSessions(ctx context.Context, args []string, tio IO) int {
	home, err := paths.Home(tio.Getenv)
	if err == nil {
		err = paths.Ensure(home)
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: opening the session database: %v\n", err)
		return exitFailure
	}
	defer st.Close()
	lg, err := openLedger(ctx, home, st, nil)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	return Sessions(ctx, st, lg, args, tio.Stdout, tio.Stderr)
}
