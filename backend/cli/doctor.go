package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"pilot/backend/service"
	"pilot/backend/wire"
)

// Doctor runs `pilot doctor [--json]`: a line for each thing Pilot relies
// on (the sandbox of commands and what it needs, git, rg), each a
// sentence, then the language servers (optional: found or not, with their
// version). It exits 0 when everything needed is ready, 1 otherwise.
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
	home := "" // without one, the user's own language servers are not listed
	if tio.Getenv != nil {
		home, _ = service.Home(tio.Getenv)
	}
	r := service.Doctor(ctx, home)
	if asJSON {
		_ = json.NewEncoder(tio.Stdout).Encode(r)
	} else {
		r := lineFields(r) // paths and versions programs printed, every character visible
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
		writeLanguageServers(tio.Stdout, r.LanguageServers)
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

// writeLanguageServers lists the language servers under doctor's checks:
// "ok" with where and which version, "--" with how to install a missing
// one. They are optional: none makes doctor fail.
func writeLanguageServers(out io.Writer, servers []wire.LanguageServer) {
	if len(servers) == 0 {
		return
	}
	fmt.Fprintln(out, "Language servers (optional: the agent reads their diagnostics after each change):")
	for _, s := range servers {
		switch {
		case s.State == wire.ServerMissing:
			line := "not found on PATH"
			if s.LastError != "" { // found only where Pilot does not run programs from
				line = s.LastError
			}
			if s.Install != "" {
				line += "; install it with: " + s.Install
			}
			fmt.Fprintf(out, "--   %-16s %s\n", s.Name, line)
		case s.State == wire.ServerFailed:
			fmt.Fprintf(out, "--   %-16s %s failed: %s\n", s.Name, s.Path, s.LastError)
		default:
			v := s.Version
			if v == "" {
				v = "version unknown"
			}
			fmt.Fprintf(out, "ok   %-16s %s (%s)\n", s.Name, s.Path, v)
		}
	}
}
