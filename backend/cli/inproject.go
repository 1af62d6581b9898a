package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"pilot/backend/service"
)

// runInProject runs `pilot NAME [--project DIR] [SWITCH]`: its usage for
// help; a sentence and the usage for an unexpected argument (exit 2); a
// sentence for a project folder that cannot be used (exit 1); else run
// with PILOT_HOME's service, the project folder (--project, else
// PILOT_PROJECT, else the current folder) and whether one of switches was
// given.
func runInProject(ctx context.Context, args []string, tio IO, name, usage string, switches []string, run func(svc *service.Service, dir string, on bool) int) int {
	var project string
	var on bool
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "help" || a == "--help" || a == "-h":
			fmt.Fprint(tio.Stdout, usage)
			return exitOK
		case slices.Contains(switches, a):
			on = true
		case a == "--project" && i+1 < len(args):
			i++
			project = args[i]
		case strings.HasPrefix(a, "--project="):
			project = strings.TrimPrefix(a, "--project=")
		default:
			return misuse(tio.Stderr, usage, "%s: unexpected argument %q", name, a)
		}
	}
	dir, err := mcpProject(project, tio.Getenv)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot %s: %v\n", name, err)
		return exitFailure
	}
	return withService(ctx, tio, func(svc *service.Service) int { return run(svc, dir, on) })
}
