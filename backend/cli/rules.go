package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const rulesUsage = `usage:
  pilot rules list [--project DIR] [--json]
  pilot rules add allow|deny TOOL PATTERN [--project DIR] [--json]
  pilot rules remove ID [--project DIR] [--json]

A rule allows or denies calls of TOOL whose subject matches PATTERN, in the
project at DIR (--project, else PILOT_PROJECT, else the current folder).
TOOL is a tool (run_bash, write_file, read_file, web_fetch, ...), edits
for every file-changing tool, network for the hosts sandboxed commands
reach through Pilot's proxy, or mcp__SERVER or mcp__SERVER__TOOL of a
configured MCP server. PATTERN is matched against the command of
run_bash, each path of a file tool, the host of web_fetch or network (a
host alone, no scheme or port), or the tool names of mcp__SERVER:
"go test *", "src/**", "*.github.com", "registry.npmjs.org".
web_fetch and network rules are separate: allow web_fetch HOST does not
let commands reach HOST, and allow network HOST does not let web_fetch
read it. A private or loopback address (localhost, 10.x, 127.0.0.1)
opens only for an allow rule naming that host exactly, without wildcards.
A bad pattern, an unknown tool or an empty pattern is refused (exit 2);
list flags stored rules that cannot match as written.
`

type rulesArgs struct {
	cmd, project string
	json         bool
	pos          []string
}

func parseRulesArgs(args []string) (rulesArgs, error) {
	a := rulesArgs{cmd: args[0]}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		name, value, hasValue := strings.Cut(arg, "=")
		switch {
		case arg == "--":
			a.pos = append(a.pos, rest[i+1:]...)
			i = len(rest)
		case name == "--project":
			if !hasValue {
				if i+1 >= len(rest) {
					return a, errors.New("--project needs a folder")
				}
				i++
				value = rest[i]
			}
			a.project = value
		case arg == "--json":
			a.json = true
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			return a, fmt.Errorf("unknown option %s", arg)
		default:
			a.pos = append(a.pos, arg)
		}
	}
	want := map[string]int{"list": 0, "add": 3, "remove": 1}
	n, ok := want[a.cmd]
	switch {
	case !ok:
		return a, fmt.Errorf("unknown command %q", a.cmd)
	case len(a.pos) != n && a.cmd == "add":
		return a, errors.New("add takes allow or deny, a tool and a pattern (quote a pattern with spaces)")
	case len(a.pos) != n:
		return a, fmt.Errorf("%s takes %d argument(s), got %d", a.cmd, n, len(a.pos))
	}
	return a, nil
}

// runRules runs `pilot rules ...`.
func runRules(ctx context.Context, args []string, tio IO) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(tio.Stdout, rulesUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	a, err := parseRulesArgs(args)
	if err != nil {
		return misuse(tio.Stderr, rulesUsage, "rules: %v", err)
	}
	var id int64
	if a.cmd == "remove" {
		var ok bool
		if id, ok = storedID(a.pos[0]); !ok {
			return misuse(tio.Stderr, rulesUsage, "rules remove: %q is not a rule id; pilot rules list shows them", a.pos[0])
		}
	}
	dir, err := mcpProject(a.project, tio.Getenv)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir) // the form the window opens projects by
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot rules: %v\n", err)
		return exitFailure
	}
	return withService(ctx, tio, func(svc *service.Service) int {
		p, err := svc.Projects.Find(ctx, dir)
		opened := err == nil
		if errors.Is(err, service.ErrNotFound) {
			err = nil
		}
		if err != nil {
			fmt.Fprintf(tio.Stderr, "pilot rules %s: %v\n", a.cmd, err)
			return exitFailure
		}
		switch a.cmd {
		case "list":
			return listRules(ctx, svc, p, opened, dir, a.json, tio)
		case "add":
			if !opened {
				if p, err = svc.Projects.Add(ctx, dir); err != nil {
					fmt.Fprintf(tio.Stderr, "pilot rules add: %v\n", err)
					return exitFailure
				}
			}
			return addRule(ctx, svc, p, a, tio)
		}
		if !opened {
			fmt.Fprintf(tio.Stderr, "pilot rules remove: %s has not been opened in Pilot, so it has no rule %d.\n", dir, id)
			return exitFailure
		}
		return removeRule(ctx, svc, p, id, a.json, tio)
	})
}

func listRules(ctx context.Context, svc *service.Service, p wire.Project, opened bool, dir string, asJSON bool, tio IO) int {
	var ls []wire.Rule
	if opened {
		var err error
		if ls, err = svc.Rules.List(ctx, p.ID); err != nil {
			fmt.Fprintf(tio.Stderr, "pilot rules list: %v\n", err)
			return exitFailure
		}
	}
	imported := svc.Rules.ImportedIn(dir)
	if asJSON {
		lines := make([]wire.RuleLine, len(ls))
		for i, l := range ls {
			lines[i] = ruleLine(l)
		}
		lines = append(lines, importedLines(imported)...)
		if err := jsonLines(tio.Stdout, lines); err != nil {
			fmt.Fprintf(tio.Stderr, "pilot rules list: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	if len(ls) == 0 && len(imported.Rules)+len(imported.Ignored) == 0 {
		fmt.Fprintf(tio.Stdout, "No rules in %s: every change and command is asked for (pilot rules add adds one).\n", dir)
		return exitOK
	}
	defer printImported(tio.Stdout, imported)
	if len(ls) == 0 {
		fmt.Fprintf(tio.Stdout, "No rules of Pilot's own in %s (pilot rules add adds one).\n", dir)
		return exitOK
	}
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEFFECT\tTOOL\tPATTERN\t")
	invalid := 0
	for _, l := range ls {
		pattern := l.Pattern // %q shows it escaped
		l := lineFields(l)
		flag := ""
		if l.Invalid != "" {
			invalid++
			flag = "INVALID: " + l.Invalid
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%q\t%s\n", l.ID, l.Effect, l.Tool, pattern, flag)
	}
	if err := tw.Flush(); err != nil {
		return exitFailure
	}
	for _, line := range strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n") {
		fmt.Fprintln(tio.Stdout, strings.TrimRight(line, " "))
	}
	if invalid > 0 {
		fmt.Fprintf(tio.Stdout, "%d of %d rules cannot match as written: remove them (pilot rules remove ID) and add them again corrected.\n", invalid, len(ls))
	}
	return exitOK
}

func addRule(ctx context.Context, svc *service.Service, p wire.Project, a rulesArgs, tio IO) int {
	stored, err := svc.Rules.Add(ctx, p.ID, a.pos[1], a.pos[2], a.pos[0])
	var inv *service.InvalidRule
	switch {
	case errors.As(err, &inv):
		fmt.Fprintf(tio.Stderr, "pilot rules add: %s\n", inv.Sentence)
		return exitUsage
	case err != nil:
		fmt.Fprintf(tio.Stderr, "pilot rules add: %v\n", err)
		return exitFailure
	}
	return printRule(tio.Stdout, "Added", stored, p.Path, a.json)
}

func removeRule(ctx context.Context, svc *service.Service, p wire.Project, id int64, asJSON bool, tio IO) int {
	r, err := svc.Rules.Remove(ctx, p.ID, id)
	switch {
	case errors.Is(err, service.ErrNotFound):
		fmt.Fprintf(tio.Stderr, "pilot rules remove: %s has no rule %d; pilot rules list shows its rules.\n", p.Path, id)
		return exitFailure
	case err != nil:
		fmt.Fprintf(tio.Stderr, "pilot rules remove: %v\n", err)
		return exitFailure
	}
	return printRule(tio.Stdout, "Removed", r, p.Path, asJSON)
}

// printRule says what was done to rule r, as a sentence or a RuleLine;
// the rule reads as the permission check names it: allow run_bash "go test *".
func printRule(w io.Writer, verb string, r wire.Rule, project string, asJSON bool) int {
	var err error
	if asJSON {
		err = json.NewEncoder(w).Encode(ruleLine(r))
	} else {
		_, err = fmt.Fprintf(w, "%s rule %d in %s: %s %s %q\n", verb, r.ID, project, r.Effect, r.Tool, r.Pattern)
	}
	if err != nil {
		return exitFailure
	}
	return exitOK
}

func ruleLine(r wire.Rule) wire.RuleLine {
	return wire.RuleLine{ID: r.ID, Effect: r.Effect, Tool: r.Tool, Pattern: r.Pattern, Invalid: r.Invalid != "", Reason: r.Invalid}
}
