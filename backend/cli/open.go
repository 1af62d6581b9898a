package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"pilot/backend/service"
)

// withService opens the application service of PILOT_HOME for a
// subcommand (sessions, rewind, rules, mcp, doctor, models), runs it and
// closes the service; it returns the exit code.
func withService(ctx context.Context, tio IO, run func(*service.Service) int) int {
	home, err := service.Home(tio.Getenv)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	svc, err := service.Open(ctx, service.Options{Home: home, Log: slog.New(slog.DiscardHandler), Getenv: subcommandEnv(tio.Getenv)})
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: opening the session database and the change ledger under %s: %v\n", home, err)
		return exitFailure
	}
	defer svc.Close()
	return run(svc)
}

// subcommandEnv is the environment the service sees for a subcommand:
// all of it but PILOT_PROJECT. A subcommand names the folder it reads or
// changes itself (--project, PILOT_PROJECT or the current folder), so
// the service must not open PILOT_PROJECT at start, which would remember
// it as opened (a `pilot rules list` would add a project to the window's
// list).
func subcommandEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == "PILOT_PROJECT" {
			return ""
		}
		return getenv(k)
	}
}

// runParsed runs `pilot NAME ARGS...`: its usage for help, the parse
// error and the usage for bad arguments (exit 2), else run with
// PILOT_HOME's service.
func runParsed[A any](ctx context.Context, args []string, tio IO, name, usage string, parse func([]string) (A, error), run func(context.Context, *service.Service, A, io.Writer, io.Writer) int) int {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "help" {
			fmt.Fprint(tio.Stdout, usage)
			return exitOK
		}
	}
	a, err := parse(args)
	if err != nil {
		return misuse(tio.Stderr, usage, "%s: %v", name, err)
	}
	return withService(ctx, tio, func(svc *service.Service) int {
		return run(ctx, svc, a, tio.Stdout, tio.Stderr)
	})
}
