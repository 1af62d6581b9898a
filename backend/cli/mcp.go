package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
)

const mcpUsage = `usage:
  pilot mcp list [--project DIR] [--json]
  pilot mcp get NAME [--project DIR] [--json]
  pilot mcp add NAME [--scope user|project] [--env K=V]... -- COMMAND [ARGS...]
  pilot mcp add NAME --url URL [--header 'K: V']... [--sse] [--scope user|project]
  pilot mcp remove NAME [--scope user|project]
  pilot mcp trust [--project DIR] [--yes]
  pilot mcp login NAME [--project DIR] [--no-browser]
  pilot mcp logout NAME [--project DIR]

MCP servers come from PILOT_HOME/mcp.json (scope user, the default) and
the project's .mcp.json (scope project; --project, default the current
folder). A project's servers start only once you have trusted its
.mcp.json: pilot mcp trust shows the exact commands it would run and asks
(--yes trusts without asking); a changed file must be trusted again.
An HTTP server that needs a sign-in (OAuth) says so in pilot mcp list;
pilot mcp login opens its sign-in page in your browser ($BROWSER, else
xdg-open), or with --no-browser prints it and reads the address your
browser was sent back to, pasted.
`

type mcpArgs struct {
	name, scope, project, url string
	env, headers, command     []string
	json, yes, sse, noBrowser bool
}

func parseMCPArgs(args []string) (mcpArgs, error) {
	var a mcpArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		value := func() (string, error) {
			if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(k, "--") {
				return v, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", arg)
			}
			i++
			return args[i], nil
		}
		flagName, _, _ := strings.Cut(arg, "=")
		var err error
		switch flagName {
		case "--":
			a.command = args[i+1:]
			i = len(args)
		case "--scope", "-s":
			a.scope, err = value()
		case "--project":
			a.project, err = value()
		case "--url":
			a.url, err = value()
		case "--env", "-e":
			var v string
			v, err = value()
			a.env = append(a.env, v)
		case "--header", "-H":
			var v string
			v, err = value()
			a.headers = append(a.headers, v)
		case "--json":
			a.json = true
		case "--yes", "-y":
			a.yes = true
		case "--sse":
			a.sse = true
		case "--no-browser":
			a.noBrowser = true
		default:
			if strings.HasPrefix(arg, "-") {
				return a, fmt.Errorf("unknown option %s", arg)
			}
			if a.name != "" {
				return a, fmt.Errorf("unexpected argument %q (put the server's command after --)", arg)
			}
			a.name = arg
		}
		if err != nil {
			return a, err
		}
	}
	switch a.scope {
	case "", scopeUser, scopeProject:
	default:
		return a, fmt.Errorf("--scope must be user or project, not %q", a.scope)
	}
	return a, nil
}

// runMCP runs `pilot mcp ...`.
func runMCP(ctx context.Context, args []string, tio IO) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(tio.Stdout, mcpUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	a, err := parseMCPArgs(args[1:])
	if err != nil {
		return misuse(tio.Stderr, mcpUsage, "mcp: %v", err)
	}
	project, err := mcpProject(a.project, tio.Getenv)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot mcp: %v\n", err)
		return exitFailure
	}
	if a.name == "" && (args[0] == "get" || args[0] == "add" || args[0] == "remove" || args[0] == "login" || args[0] == "logout") {
		return misuse(tio.Stderr, mcpUsage, "mcp %s: name the server", args[0])
	}
	switch args[0] {
	case "list", "get", "add", "remove", "trust", "login", "logout":
	default:
		return misuse(tio.Stderr, mcpUsage, "mcp: unknown command %q", args[0])
	}
	return withService(ctx, tio, func(svc *service.Service) int {
		switch args[0] {
		case "list":
			err = mcpList(ctx, svc, project, a, tio)
		case "get":
			err = mcpGet(ctx, svc, project, a, tio)
		case "add":
			err = mcpAdd(svc, project, a, tio)
		case "remove":
			err = mcpRemove(svc, project, a, tio)
		case "trust":
			err = mcpTrust(svc, project, a, tio)
		case "login":
			err = mcpLogin(ctx, svc, project, a, tio)
		case "logout":
			err = mcpLogout(svc, project, a, tio)
		}
		if err != nil {
			fmt.Fprintf(tio.Stderr, "pilot mcp %s: %v\n", args[0], err)
			return exitFailure
		}
		return 0
	})
}

// The scopes of a configured server: PILOT_HOME/mcp.json, or the
// project's .mcp.json.
const (
	scopeUser    = "user"
	scopeProject = "project"
)

func mcpProject(dir string, getenv func(string) string) (string, error) {
	if dir == "" {
		dir = getenv("PILOT_PROJECT")
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("the project folder %s does not exist", abs)
	}
	return abs, nil
}

func mcpList(ctx context.Context, svc *service.Service, project string, a mcpArgs, tio IO) error {
	st, needsTrust, err := svc.MCP.StatusIn(ctx, project)
	if err != nil {
		return err
	}
	if a.json {
		return jsonLines(tio.Stdout, st)
	}
	st = lineFields(st) // the servers' names, commands, errors, every character visible
	if len(st) == 0 {
		fmt.Fprintf(tio.Stdout, "No MCP servers. Add one with: pilot mcp add NAME -- COMMAND [ARGS...]\n")
		return nil
	}
	for _, s := range st {
		line := fmt.Sprintf("%s\t%s\t%s\t%s", s.Name, s.Scope, s.State, s.Display)
		if s.State == "ready" {
			line += fmt.Sprintf("\t(%d tools)", len(s.Tools))
		}
		if s.SignIn != "" {
			line += "\t" + s.SignIn
		}
		if s.Error != "" {
			line += "\t" + s.Error
		}
		fmt.Fprintln(tio.Stdout, line)
	}
	if needsTrust {
		fmt.Fprintf(tio.Stdout, "\nThe project's .mcp.json is not trusted: review and trust it with `pilot mcp trust --project %s`.\n", project)
	}
	return nil
}

func mcpGet(ctx context.Context, svc *service.Service, project string, a mcpArgs, tio IO) error {
	st, _, err := svc.MCP.StatusIn(ctx, project)
	if err != nil {
		return err
	}
	for _, s := range st {
		if s.Name != a.name {
			continue
		}
		if a.json {
			return json.NewEncoder(tio.Stdout).Encode(s)
		}
		for i := range s.Tools {
			s.Tools[i].Description = firstLineOf(s.Tools[i].Description)
		}
		for i := range s.Prompts {
			s.Prompts[i].Description = firstLineOf(s.Prompts[i].Description)
		}
		w, s := tio.Stdout, lineFields(s) // the server's own words, every character visible
		fmt.Fprintf(w, "%s\n  scope: %s\n  transport: %s\n  runs: %s\n  state: %s\n", s.Name, s.Scope, s.Transport, s.Display, s.State)
		if s.SignIn != "" {
			fmt.Fprintf(w, "  sign-in: %s\n", s.SignIn)
		}
		if s.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", s.Error)
		}
		fmt.Fprintf(w, "  tools (%d):\n", len(s.Tools))
		for _, t := range s.Tools {
			fmt.Fprintf(w, "    %s  %s\n", t.Name, t.Description)
		}
		if len(s.Prompts) > 0 {
			fmt.Fprintf(w, "  prompts (%d), as slash commands:\n", len(s.Prompts))
			for _, p := range s.Prompts {
				fmt.Fprintf(w, "    /%s %s  %s\n", p.Name, strings.Join(p.Args, " "), p.Description)
			}
		}
		if len(s.Stderr) > 0 {
			fmt.Fprintf(w, "  last stderr lines:\n")
			for _, l := range s.Stderr {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
		return nil
	}
	return fmt.Errorf("no MCP server called %q (pilot mcp list shows them)", a.name)
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func mcpAdd(svc *service.Service, project string, a mcpArgs, tio IO) error {
	in := wire.MCPServerInput{Scope: wire.MCPScope(a.scope), Name: a.name}
	switch {
	case a.url != "" && len(a.command) > 0:
		return errors.New("give either --url or a command after --, not both")
	case a.url != "":
		in.Type, in.URL = "http", a.url
		if a.sse {
			in.Type = "sse"
		}
		for _, hd := range a.headers {
			k, v, ok := strings.Cut(hd, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return fmt.Errorf("--header %q: write it as 'Name: value'", hd)
			}
			if in.Headers == nil {
				in.Headers = map[string]string{}
			}
			in.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	case len(a.command) > 0:
		in.Command, in.Args = a.command[0], a.command[1:]
		for _, kv := range a.env {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return fmt.Errorf("--env %q: write it as K=V", kv)
			}
			if in.Env == nil {
				in.Env = map[string]string{}
			}
			in.Env[k] = v
		}
	default:
		return errors.New("give the server's command after -- (pilot mcp add NAME -- npx -y some-server) or --url URL")
	}
	ch, err := svc.MCP.SaveServerIn(project, in)
	if err != nil {
		return err
	}
	verb := "Added"
	if ch.Replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(tio.Stdout, "%s the %s server %s in %s: %s\n", verb, ch.Scope, ch.Name, ch.Path, ch.Display)
	return nil
}

func mcpRemove(svc *service.Service, project string, a mcpArgs, tio IO) error {
	ch, err := svc.MCP.RemoveServerIn(project, a.scope, a.name)
	if err != nil {
		return err
	}
	fmt.Fprintf(tio.Stdout, "Removed the %s server %s from %s\n", ch.Scope, ch.Name, ch.Path)
	return nil
}

func mcpTrust(svc *service.Service, project string, a mcpArgs, tio IO) error {
	p, err := svc.MCP.TrustPromptIn(project)
	if err != nil {
		return err
	}
	if p.Hash == "" {
		fmt.Fprintf(tio.Stdout, "%s has no %s: nothing to trust.\n", project, filepath.Base(p.Path))
		return nil
	}
	if !p.Needed {
		fmt.Fprintf(tio.Stdout, "%s is already trusted.\n", p.Path)
		return nil
	}
	w, shown := tio.Stdout, lineFields(p)
	fmt.Fprintf(w, "%s would start these MCP servers:\n", shown.Path)
	for _, s := range shown.Servers {
		fmt.Fprintf(w, "  %s: %s\n", s.Name, s.Display)
	}
	return askTrust{
		question:   "Trust this file and run these commands? [y/N] ",
		noTerminal: "not trusted: run it again with --yes to trust this file, or in a terminal to be asked",
		refused:    "not trusted; its servers stay off",
		trust:      func() error { return svc.MCP.TrustIn(project, p.Hash) },
		done:       "Trusted. Its servers start in this project from now on (until the file changes).",
	}.run(tio, a.yes)
}
