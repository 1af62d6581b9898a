package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/mcp"
	"pilot/backend/mcpauth"
	"pilot/backend/wire"
)

// MCP servers of a folder named by the caller (pilot mcp --project DIR),
// read and changed without opening it as a project: nothing is started
// but what StatusIn starts in the pool for a look, and stops again.

// StatusIn starts the servers configured for the folder dir in the pool
// (the one that serves the window and `pilot -p` too), waits (at most
// their start timeout) until none is still starting, so the states are
// real, and stops them again unless dir is the open project. needsTrust
// is whether the folder's .mcp.json waits for the user's trust (its
// servers are not started). A configuration file that cannot be read is
// an error.
func (m *MCP) StatusIn(ctx context.Context, dir string) (servers []wire.MCPStatus, needsTrust bool, err error) {
	h := m.mcp.For(dir)
	if dir != m.currentProject() {
		defer m.mcp.CloseProject(dir)
	}
	if e := h.ConfigError(); e != "" {
		return nil, false, errors.New(e)
	}
	wctx, cancel := context.WithTimeout(ctx, mcp.DefaultStartTimeout+time.Second)
	defer cancel()
	h.WaitReady(wctx)
	st := h.Status()
	servers = make([]wire.MCPStatus, len(st))
	for i, s := range st {
		servers[i] = mcpStatus(s)
	}
	needsTrust, _ = h.NeedsTrust()
	return servers, needsTrust, nil
}

func mcpStatus(s mcp.Status) wire.MCPStatus {
	out := wire.MCPStatus{Name: s.Name, Scope: s.Scope, Transport: s.Transport, Display: s.Display, State: string(s.State),
		Error: s.Error, Stderr: s.Stderr, Restarts: s.Restarts, Server: wire.MCPServerSettings(s.Server), SignIn: s.SignIn}
	if s.Tools != nil {
		out.Tools = make([]wire.MCPToolInfo, len(s.Tools))
	}
	for i, t := range s.Tools {
		out.Tools[i] = wire.MCPToolInfo{Name: t.Name, Server: t.Server, Tool: t.Tool, Description: t.Description, Schema: t.Schema}
	}
	out.Prompts = slices.Clone(s.Prompts) // nil stays nil (null)
	return out
}

// SaveServerIn adds or replaces a server in the user's mcp.json (scope
// user, the default) or the .mcp.json of the folder dir (scope project),
// as SaveServer does for the open project.
func (m *MCP) SaveServerIn(dir string, in wire.MCPServerInput) (wire.MCPConfigChange, error) {
	scope := string(in.Scope)
	if scope == "" {
		scope = mcp.ScopeUser
	}
	s := mcp.Server{Type: string(in.Type), Command: strings.TrimSpace(in.Command), Args: in.Args, Env: in.Env, Cwd: in.Cwd, URL: strings.TrimSpace(in.URL), Headers: in.Headers}
	if in.Type == mcp.TypeStdio {
		s.Type = ""
	}
	name := strings.TrimSpace(in.Name)
	ch := wire.MCPConfigChange{Name: name, Scope: wire.MCPScope(scope), Path: mcp.ScopePath(m.home, dir, scope), Display: mcp.Display(s, mcp.EnvLookup)}
	replaced, err := mcp.Put(m.home, dir, scope, name, s)
	if err != nil {
		return wire.MCPConfigChange{}, err
	}
	ch.Replaced = replaced
	return ch, nil
}

// RemoveServerIn removes the server name from the scope given, or,
// when scope is "", from the one scope (user, or the project at dir) that
// has it; a name in both must be told apart with a scope.
func (m *MCP) RemoveServerIn(dir, scope, name string) (wire.MCPConfigChange, error) {
	scopes := []string{mcp.ScopeUser, mcp.ScopeProject}
	if scope != "" {
		scopes = []string{scope}
	}
	var found []string
	for _, sc := range scopes {
		f, _, err := mcp.ReadScope(m.home, dir, sc)
		if err != nil {
			return wire.MCPConfigChange{}, err
		}
		if _, ok := f.Servers[name]; ok {
			found = append(found, sc)
		}
	}
	switch len(found) {
	case 0:
		return wire.MCPConfigChange{}, fmt.Errorf("no MCP server called %q in scope %s", name, strings.Join(scopes, " or "))
	case 2:
		return wire.MCPConfigChange{}, fmt.Errorf("%q is in both the user and the project configuration; say which with --scope user or --scope project", name)
	}
	ch := wire.MCPConfigChange{Name: name, Scope: wire.MCPScope(found[0]), Path: mcp.ScopePath(m.home, dir, found[0])}
	if err := mcp.Remove(m.home, dir, found[0], name); err != nil {
		return wire.MCPConfigChange{}, err
	}
	return ch, nil
}

// TrustPromptIn is the trust prompt of the folder dir: the servers its
// .mcp.json would start with their exact commands, and its settings files'
// allow rules and hooks (Sections). Hash is "" when the folder has no
// .mcp.json; Needed is false when there is nothing to trust or every file
// is trusted as it is.
func (m *MCP) TrustPromptIn(dir string) (wire.MCPTrustPrompt, error) {
	set, err := mcp.Load(m.home, dir)
	if err != nil {
		return wire.MCPTrustPrompt{}, err
	}
	p := wire.MCPTrustPrompt{Project: dir, Path: mcp.ProjectPath(dir), Hash: set.ProjectHash, Servers: []wire.MCPTrustServer{}}
	if ok, _ := mcp.Trusted(m.home, dir, set.ProjectHash); ok { // no .mcp.json is trusted too
		m.svc.Trust.withSettings(&p, dir)
		return p, nil
	}
	p.Needed = true
	for _, e := range set.Entries {
		if e.Scope == mcp.ScopeProject {
			p.Servers = append(p.Servers, wire.MCPTrustServer{Name: e.Name, Display: mcp.Display(e.Server, mcp.EnvLookup)})
		}
	}
	p.Changed = mcp.WasTrusted(m.home, dir)
	m.svc.Trust.withSettings(&p, dir)
	return p, nil
}

// TrustIn trusts the folder dir's .mcp.json as shown (hash): its
// servers start in that project from then on, until the file changes.
func (m *MCP) TrustIn(dir, hash string) error {
	return mcp.Trust(m.home, dir, hash)
}

// SignInIn is the sign-in of the server name of the folder dir, for
// `pilot mcp login` to run (mcp.Pool.SignIn): nothing is started.
func (m *MCP) SignInIn(dir, name string) (mcpauth.Login, error) { return m.mcp.SignIn(dir, name) }

// SignOutIn forgets the sign-in of the server name of the folder dir; it
// reports whether there was one.
func (m *MCP) SignOutIn(dir, name string) (bool, error) { return m.mcp.SignOut(dir, name) }

// Browse opens u in the user's browser ($BROWSER, else xdg-open;
// mcpauth.Browser) with an allowlisted environment, without waiting for it.
func (m *MCP) Browse(u string) error {
	getenv := m.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cmd, err := mcpauth.Browser(u, getenv)
	if err != nil {
		return err
	}
	cmd.Env = childenv.Env(os.Environ(), "", nil)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
