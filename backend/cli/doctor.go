package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"pilot/backend/service"
)

// Doctor runs `pilot doctor [--json]`: a line for each thing Pilot relies
// on (the sandbox of commands and what it needs, git, rg), each a
// sentence. It exits 0 when everything needed is ready, 1 otherwise.
func Doctor(ctx context.Context, args []string, tio IO) int {
	asJSON := false
	for _, a := range args {
		switch a {
		case "--json":
			asJSON = true
		case "help", "--help", "-h":
			fmt.Fprint(tio.Stdout, "Usage: pilot doctor [--json]\n\nChecks the sandbox of commands (bubblewrap, user namespaces, Landlock, the proxy) and the programs Pilot uses; exit 0 when everything needed is ready.\n")
			return 0
		default:
			fmt.Fprintf(tio.Stderr, "pilot doctor: unknown argument %q; usage: pilot doctor [--json]\n", a)
			return exitUsage
		}
	}
	r := service.Doctor(ctx)
	if asJSON {
		_ = json.NewEncoder(tio.Stdout).Encode(r)
	} else {
		for _, c := range r.Checks {
			mark := "ok  "
			switch {
			case !c.OK && c.Needed:
				mark = "FAIL"
			case !c.OK:
				mark = "--  "
			}
			fmt.Fprintf(tio.Stdout, "%s %-16s %s\n", mark, c.Name, c.Detail)
		}
		if r.Ready {
			fmt.Fprintln(tio.Stdout, "Everything Pilot needs is ready.")
		} else {
			fmt.Fprintln(tio.Stdout, "Something Pilot needs is not ready: the lines marked FAIL say what to install or change.")
		}
	}
	if !r.Ready {
		return exitFailure
	}
	return 0
}
