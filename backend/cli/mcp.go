package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/version"
)

const mcpUsage = `usage:
  pilot mcp list [--project DIR] [--json]
  pilot mcp get NAME [--project DIR] [--json]
  pilot mcp add NAME [--scope user|project] [--env K=V]... -- COMMAND [ARGS...]
  pilot mcp add NAME --url URL [--header 'K: V']... [--sse] [--scope user|project]
  pilot mcp remove NAME [--scope user|project]
  pilot mcp trust [--project DIR] [--yes]

MCP servers come from PILOT_HOME/mcp.json (scope user, the default) and
the project's .mcp.json (scope project; --project, default the current
folder). A project's servers start only once you have trusted its
.mcp.json: pilot mcp trust shows the exact commands it would run and asks
(--yes trusts without asking); a changed file must be trusted again.
`

type mcpArgs struct {
	name, scope, project, url string
	env, headers, command     []string
	json, yes, sse            bool
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
	case "", mcp.ScopeUser, mcp.ScopeProject:
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
		fmt.Fprintf(tio.Stderr, "pilot mcp: %v\n%s", err, mcpUsage)
		return 2
	}
	home, err := paths.Home(tio.Getenv)
	if err == nil {
		err = paths.Ensure(home)
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot: %v\n", err)
		return exitFailure
	}
	project, err := mcpProject(a.project, tio.Getenv)
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot mcp: %v\n", err)
		return exitFailure
	}
	needName := func() bool {
		if a.name == "" {
			fmt.Fprintf(tio.Stderr, "pilot mcp %s: name the server\n%s", args[0], mcpUsage)
			return false
		}
		return true
	}
	switch args[0] {
	case "list":
		err = mcpList(ctx, home, project, a, tio)
	case "get":
		if !needName() {
			return 2
		}
		err = mcpGet(ctx, home, project, a, tio)
	case "add":
		if !needName() {
			return 2
		}
		err = mcpAdd(home, project, a, tio)
	case "remove":
		if !needName() {
			return 2
		}
		err = mcpRemove(home, project, a, tio)
	case "trust":
		err = mcpTrust(home, project, a, tio)
	default:
		fmt.Fprintf(tio.Stderr, "pilot mcp: unknown command %q\n%s", args[0], mcpUsage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(tio.Stderr, "pilot mcp %s: %v\n", args[0], err)
		return exitFailure
	}
	return 0
}

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

// openHub starts the servers and waits (at most their start timeout) until
// none is still starting, so the states shown are real.
func openHub(ctx context.Context, home, project string) (*mcp.Hub, error) {
	h, err := mcp.Open(project, mcp.HomeOptions(home, version.Get().Version, nil))
	if err != nil {
		return h, err
	}
	wctx, cancel := context.WithTimeout(ctx, mcp.DefaultStartTimeout+time.Second)
	defer cancel()
	h.WaitReady(wctx)
	return h, nil
}

func mcpList(ctx context.Context, home, project string, a mcpArgs, tio IO) error {
	h, err := openHub(ctx, home, project)
	defer h.Close()
	if err != nil {
		return err
	}
	st := h.Status()
	if a.json {
		return jsonLines(tio.Stdout, st)
	}
	if len(st) == 0 {
		fmt.Fprintf(tio.Stdout, "No MCP servers. Add one with: pilot mcp add NAME -- COMMAND [ARGS...]\n")
		return nil
	}
	for _, s := range st {
		line := fmt.Sprintf("%s\t%s\t%s\t%s", s.Name, s.Scope, s.State, s.Display)
		if s.State == mcp.Ready {
			line += fmt.Sprintf("\t(%d tools)", len(s.Tools))
		}
		if s.Error != "" {
			line += "\t" + s.Error
		}
		fmt.Fprintln(tio.Stdout, line)
	}
	if need, _ := h.NeedsTrust(); need {
		fmt.Fprintf(tio.Stdout, "\nThe project's .mcp.json is not trusted: review and trust it with `pilot mcp trust --project %s`.\n", project)
	}
	return nil
}

func mcpGet(ctx context.Context, home, project string, a mcpArgs, tio IO) error {
	h, err := openHub(ctx, home, project)
	defer h.Close()
	if err != nil {
		return err
	}
	for _, s := range h.Status() {
		if s.Name != a.name {
			continue
		}
		if a.json {
			return json.NewEncoder(tio.Stdout).Encode(s)
		}
		w := tio.Stdout
		fmt.Fprintf(w, "%s\n  scope: %s\n  transport: %s\n  runs: %s\n  state: %s\n", s.Name, s.Scope, s.Transport, s.Display, s.State)
		if s.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", s.Error)
		}
		fmt.Fprintf(w, "  tools (%d):\n", len(s.Tools))
		for _, t := range s.Tools {
			fmt.Fprintf(w, "    %s  %s\n", t.Name, firstLineOf(t.Description))
		}
		if len(s.Prompts) > 0 {
			fmt.Fprintf(w, "  prompts (%d), as slash commands:\n", len(s.Prompts))
			for _, p := range s.Prompts {
				fmt.Fprintf(w, "    /%s %s  %s\n", p.Name, strings.Join(p.Args, " "), firstLineOf(p.Description))
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

func mcpAdd(home, project string, a mcpArgs, tio IO) error {
	var s mcp.Server
	switch {
	case a.url != "" && len(a.command) > 0:
		return errors.New("give either --url or a command after --, not both")
	case a.url != "":
		s = mcp.Server{Type: mcp.TypeHTTP, URL: a.url}
		if a.sse {
			s.Type = mcp.TypeSSE
		}
		for _, hd := range a.headers {
			k, v, ok := strings.Cut(hd, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return fmt.Errorf("--header %q: write it as 'Name: value'", hd)
			}
			if s.Headers == nil {
				s.Headers = map[string]string{}
			}
			s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	case len(a.command) > 0:
		s = mcp.Server{Command: a.command[0], Args: a.command[1:]}
		for _, kv := range a.env {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return fmt.Errorf("--env %q: write it as K=V", kv)
			}
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[k] = v
		}
	default:
		return errors.New("give the server's command after -- (pilot mcp add NAME -- npx -y some-server) or --url URL")
	}
	scope := a.scope
	if scope == "" {
		scope = mcp.ScopeUser
	}
	path := mcp.ScopePath(home, project, scope)
	replaced, err := mcp.Put(home, project, scope, a.name, s)
	if err != nil {
		return err
	}
	verb := "Added"
	if replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(tio.Stdout, "%s the %s server %s in %s: %s\n", verb, scope, a.name, path, mcp.Display(s, mcp.EnvLookup))
	return nil
}

func mcpRemove(home, project string, a mcpArgs, tio IO) error {
	scopes := []string{mcp.ScopeUser, mcp.ScopeProject}
	if a.scope != "" {
		scopes = []string{a.scope}
	}
	var found []string
	for _, sc := range scopes {
		f, _, err := mcp.ReadFile(mcp.ScopePath(home, project, sc))
		if err != nil {
			return err
		}
		if _, ok := f.Servers[a.name]; ok {
			found = append(found, sc)
		}
	}
	switch len(found) {
	case 0:
		return fmt.Errorf("no MCP server called %q in scope %s", a.name, strings.Join(scopes, " or "))
	case 2:
		return fmt.Errorf("%q is in both the user and the project configuration; say which with --scope user or --scope project", a.name)
	}
	path := mcp.ScopePath(home, project, found[0])
	if err := mcp.Remove(home, project, found[0], a.name); err != nil {
		return err
	}
	fmt.Fprintf(tio.Stdout, "Removed the %s server %s from %s\n", found[0], a.name, path)
	return nil
}

func mcpTrust(home, project string, a mcpArgs, tio IO) error {
	set, err := mcp.Load(home, project)
	if err != nil {
		return err
	}
	if set.ProjectHash == "" {
		fmt.Fprintf(tio.Stdout, "%s has no %s: nothing to trust.\n", project, mcp.ProjectFile)
		return nil
	}
	if ok, _ := mcp.Trusted(home, project, set.ProjectHash); ok {
		fmt.Fprintf(tio.Stdout, "%s is already trusted.\n", mcp.ProjectPath(project))
		return nil
	}
	w := tio.Stdout
	fmt.Fprintf(w, "%s would start these MCP servers:\n", mcp.ProjectPath(project))
	for _, e := range set.Entries {
		if e.Scope == mcp.ScopeProject {
			fmt.Fprintf(w, "  %s: %s\n", e.Name, mcp.Display(e.Server, mcp.EnvLookup))
		}
	}
	if !a.yes {
		if !isTerminal(tio.Stdin) {
			return errors.New("not trusted: run it again with --yes to trust this file, or in a terminal to be asked")
		}
		fmt.Fprint(w, "Trust this file and run these commands? [y/N] ")
		line, _ := bufio.NewReader(tio.Stdin).ReadString('\n')
		if l := strings.ToLower(strings.TrimSpace(line)); l != "y" && l != "yes" {
			return errors.New("not trusted; its servers stay off")
		}
	}
	if err := mcp.Trust(home, project, set.ProjectHash); err != nil {
		return err
	}
	fmt.Fprintf(w, "Trusted. Its servers start in this project from now on (until the file changes).\n")
	return nil
}
