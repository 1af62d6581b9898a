package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const trustUsage = `usage:
  pilot trust [--project DIR] [--yes]

Shows what the project's files would let Pilot run or allow — the MCP
servers of its .mcp.json, and the allow rules and hooks of its
.claude/settings.json, .claude/settings.local.json and .pilot/settings.json
— and asks whether to trust them as they are (--yes trusts without
asking). A file changed later must be trusted again. Deny and ask rules
need no trust: they only restrict. The project is --project, else
PILOT_PROJECT, else the current folder.
`

// runTrust runs `pilot trust`.
func runTrust(ctx context.Context, args []string, tio IO) int {
	return runInProject(ctx, args, tio, "trust", trustUsage, []string{"--yes", "-y"}, func(svc *service.Service, dir string, yes bool) int {
		if err := trustProject(svc, dir, yes, tio); err != nil {
			fmt.Fprintf(tio.Stderr, "pilot trust: %v\n", err)
			return exitFailure
		}
		return exitOK
	})
}

func trustProject(svc *service.Service, dir string, yes bool, tio IO) error {
	p, err := svc.MCP.TrustPromptIn(dir)
	if err != nil {
		return err
	}
	w := tio.Stdout
	if !p.Needed {
		fmt.Fprintf(w, "Nothing in %s waits for trust: its .mcp.json and settings files are trusted as they are, or give nothing to trust.\n", dir)
		return nil
	}
	printTrust(w, p)
	return askTrust{
		question:   "Trust these files as they are? [y/N] ",
		noTerminal: "not trusted: run it again with --yes to trust these files as shown, or in a terminal to be asked",
		refused:    "not trusted; the servers stay off, the allow rules do not apply and the hooks do not run",
		trust:      func() error { return svc.Trust.ProjectIn(dir, p.Token) },
		done:       "Trusted. From now on, until a file changes, its MCP servers start, its allow rules apply and its hooks run in this project.",
	}.run(tio, yes)
}

// printTrust writes what the prompt shows, a section per file.
func printTrust(w interface{ Write([]byte) (int, error) }, p wire.MCPTrustPrompt) {
	p = lineFields(p) // the files' commands, names and paths, every character visible
	for _, s := range p.Sections {
		changed := ""
		if s.Changed {
			changed = " (changed since you trusted it)"
		}
		switch s.Kind {
		case wire.TrustMCP:
			fmt.Fprintf(w, "%s%s would start these MCP servers:\n", s.Path, changed)
		case wire.TrustRules:
			fmt.Fprintf(w, "%s%s would allow, without asking:\n", s.Path, changed)
		case wire.TrustHooks:
			fmt.Fprintf(w, "%s%s would run these hooks, as your own programs:\n", s.Path, changed)
		default:
			fmt.Fprintf(w, "%s%s (%s):\n", s.Path, changed, filepath.Base(string(s.Kind)))
		}
		for _, it := range s.Items {
			fmt.Fprintf(w, "  %s\n", it)
		}
	}
}

// untrustedRules are the sentences a run prints on stderr for the
// project's settings files whose allow rules do not apply, as they are
// not trusted as they are now (their deny and ask rules apply).
func untrustedRules(svc *service.Service, dir string) []string {
	p, err := svc.MCP.TrustPromptIn(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range p.Sections {
		if s.Kind == wire.TrustRules {
			out = append(out, fmt.Sprintf("the allow rules of %s are not applied, as the file is the project's and not trusted as it is now (its deny and ask rules apply): review and trust it with `pilot trust --project %s`.", s.Path, dir))
		}
	}
	return out
}

// askTrust asks the user to trust what was shown, and trusts it on a
// yes: given (--yes), or y or yes typed on the terminal after question;
// else the error noTerminal (stdin is no terminal) or refused.
type askTrust struct {
	question, noTerminal, refused string
	trust                         func() error
	done                          string // said once trusted
}

func (q askTrust) run(tio IO, yes bool) error {
	if !yes {
		if !isTerminal(tio.Stdin) {
			return errors.New(q.noTerminal)
		}
		fmt.Fprint(tio.Stdout, q.question)
		line, _ := bufio.NewReader(tio.Stdin).ReadString('\n')
		if l := strings.ToLower(strings.TrimSpace(line)); l != "y" && l != "yes" {
			return errors.New(q.refused)
		}
	}
	if err := q.trust(); err != nil {
		return err
	}
	fmt.Fprintln(tio.Stdout, q.done)
	return nil
}
