package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"pilot/backend/mcp"
	"pilot/backend/mcpauth"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// MCP is the pool of MCP servers: one for the window, `pilot -p` and
// `pilot mcp`, its servers' configuration and trust.
type MCP struct{ *core }

// mcpSource is a project's MCP servers as a session sees them: looked up
// in the pool on every use, so a project closed and opened again serves
// its running sessions from its new hub.
type mcpSource struct {
	pool *mcp.Pool
	dir  string
}

func (s mcpSource) Tools() []mcp.ToolInfo { return s.pool.For(s.dir).Tools() }
func (s mcpSource) Call(ctx context.Context, name string, args json.RawMessage) (mcp.Result, error) {
	return s.pool.For(s.dir).Call(ctx, name, args)
}

func (m *MCP) toolsFor(dir string) tools.MCP { return mcpSource{pool: m.mcp, dir: dir} }

// changed tells the window that a server of the open project changed.
func (m *MCP) changed(st mcp.Status) {
	if st.State == mcp.Failed {
		m.log.Warn("mcp server failed", "server", st.Name, "err", st.Error)
	}
	m.publish(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: m.currentProject()})
}

// open starts the servers of the project just opened and stops those of
// the project it replaces.
func (m *MCP) open(prev, next string) {
	if prev != "" && prev != next {
		go m.mcp.CloseProject(prev)
		go m.langs.closeRoot(prev)
	}
	m.mcp.For(next)
}

// WindowReady starts the MCP servers of the project the window opened on,
// in the background, once the window has made its first call.
func (m *MCP) WindowReady() {
	if dir := m.currentProject(); dir != "" {
		m.mcp.For(dir)
	}
}

func (m *MCP) hub() (*mcp.Hub, string, error) {
	dir := m.currentProject()
	if dir == "" {
		return nil, "", errors.New("open a project first")
	}
	return m.mcp.For(dir), dir, nil
}

// Servers lists the servers of the open project with their state,
// after reading the configuration again (a file edited by hand takes
// effect; a changed .mcp.json stops its servers until trusted again).
func (m *MCP) Servers() (wire.MCPServers, error) {
	h, dir, err := m.hub()
	if err != nil {
		return wire.MCPServers{}, err
	}
	_ = h.Reload() // a broken file is reported as ConfigError
	out := wire.MCPServers{Project: dir, ConfigError: h.ConfigError(), Servers: []wire.MCPServer{}}
	for _, s := range h.Status() {
		v := wire.MCPServer{
			Name: s.Name, Scope: wire.MCPScope(s.Scope), Transport: wire.MCPTransport(s.Transport), Display: s.Display, State: wire.MCPState(s.State), Error: s.Error,
			Stderr: s.Stderr, Restarts: s.Restarts, Command: s.Server.Command, Args: s.Server.Args, Env: s.Server.Env,
			Cwd: s.Server.Cwd, URL: s.Server.URL, Headers: s.Server.Headers, Disabled: s.Server.Disabled, Tools: []wire.MCPTool{},
			SignIn: s.SignIn, NeedsSignIn: s.SignIn == mcpauth.NeedsSignIn, SignInWhy: s.SignInWhy,
		}
		for _, t := range s.Tools {
			v.Tools = append(v.Tools, wire.MCPTool{Name: t.Name, Tool: t.Tool, Description: t.Description})
		}
		out.Servers = append(out.Servers, v)
	}
	return out, nil
}

// TrustPrompt says whether the open project's .mcp.json or settings
// files wait for the user's trust, with the exact commands they would run
// and the rules they would apply (see trust.go).
func (m *MCP) TrustPrompt() (wire.MCPTrustPrompt, error) {
	h, dir, err := m.hub()
	if err != nil {
		return wire.MCPTrustPrompt{}, err
	}
	_ = h.Reload() // the file may have changed since the project was opened
	need, set := h.NeedsTrust()
	p := wire.MCPTrustPrompt{Needed: need, Project: dir, Path: mcp.ProjectPath(dir), Hash: set.ProjectHash, Servers: []wire.MCPTrustServer{}}
	for _, e := range set.Entries {
		if e.Scope == mcp.ScopeProject {
			p.Servers = append(p.Servers, wire.MCPTrustServer{Name: e.Name, Display: mcp.Display(e.Server, mcp.EnvLookup)})
		}
	}
	p.Changed = need && mcp.WasTrusted(m.home, dir)
	m.svc.Trust.withSettings(&p, dir)
	return p, nil
}

// Trust trusts the open project's .mcp.json as shown (hash) and starts
// its servers.
func (m *MCP) Trust(hash string) error {
	h, _, err := m.hub()
	if err != nil {
		return err
	}
	if err := h.Trust(hash); err != nil {
		return err
	}
	m.publish(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: m.currentProject()})
	return nil
}

// SaveServer adds or replaces a server (user or project scope).
func (m *MCP) SaveServer(in wire.MCPServerInput) error {
	_, dir, err := m.hub()
	if err != nil {
		return err
	}
	if _, err := m.SaveServerIn(dir, in); err != nil {
		return fmt.Errorf("saving the MCP server: %w", err)
	}
	return m.reload()
}

// RemoveServer removes a server from its scope's file.
func (m *MCP) RemoveServer(scope, name string) error {
	_, dir, err := m.hub()
	if err != nil {
		return err
	}
	if err := mcp.Remove(m.home, dir, scope, name); err != nil {
		return err
	}
	return m.reload()
}

// SetDisabled turns a server off (its process stops) or on.
func (m *MCP) SetDisabled(scope, name string, disabled bool) error {
	_, dir, err := m.hub()
	if err != nil {
		return err
	}
	if err := mcp.SetDisabled(m.home, dir, scope, name, disabled); err != nil {
		return err
	}
	return m.reload()
}

func (m *MCP) reload() error {
	h, _, err := m.hub()
	if err != nil {
		return err
	}
	err = h.Reload()
	m.publish(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: m.currentProject()})
	return err
}

// MCPResourcePrefix starts an attachment that names an MCP resource:
// "mcp:<server>:<uri>".
const MCPResourcePrefix = "mcp:"

// FindResources lists the open project's MCP resources matching query,
// for the @ picker.
func (m *MCP) FindResources(query string, limit int) ([]wire.MCPResource, error) {
	dir := m.currentProject()
	if dir == "" {
		return []wire.MCPResource{}, nil
	}
	out := []wire.MCPResource{}
	for _, r := range m.mcp.For(dir).FindResources(query, limit) {
		out = append(out, wire.MCPResource{Server: r.Server, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
	}
	return out, nil
}

// inlineResources reads the attached MCP resources of a message into its
// text and returns the remaining (file) attachments.
func (m *MCP) inlineResources(ctx context.Context, project, text string, attachments []string) (string, []string, error) {
	files := make([]string, 0, len(attachments))
	var b strings.Builder
	b.WriteString(text)
	for _, a := range attachments {
		rest, ok := strings.CutPrefix(a, MCPResourcePrefix)
		if !ok {
			files = append(files, a)
			continue
		}
		server, uri, ok := strings.Cut(rest, ":")
		if !ok {
			return "", nil, fmt.Errorf("attachment %q: an MCP resource is mcp:<server>:<uri>", a)
		}
		content, err := m.mcp.For(project).ReadResource(ctx, server, uri)
		if err != nil {
			return "", nil, fmt.Errorf("attaching %s: %w", uri, err)
		}
		fmt.Fprintf(&b, "\n\n<resource server=%q uri=%q>\n%s\n</resource>", server, uri, content)
	}
	return b.String(), files, nil
}

// Ready starts the MCP servers of the project in dir and waits until
// none is starting (at most their start timeout, or ctx), so that a
// first model call sees their tools. It returns what keeps servers off,
// a sentence each: a broken file, a .mcp.json not trusted yet, a server
// that failed.
func (m *MCP) Ready(ctx context.Context, dir string) []string {
	h := m.mcp.For(dir)
	var out []string
	if e := h.ConfigError(); e != "" {
		out = append(out, "MCP servers not started: "+e)
	}
	wctx, cancel := context.WithTimeout(ctx, mcp.DefaultStartTimeout+time.Second)
	defer cancel()
	h.WaitReady(wctx)
	if need, _ := h.NeedsTrust(); need {
		out = append(out, fmt.Sprintf("the servers of %s were not started: it is not trusted yet; review and trust it with `pilot mcp trust --project %s`", mcp.ProjectPath(dir), dir))
	}
	for _, s := range h.Status() {
		switch {
		case s.State == mcp.Failed && s.SignIn == mcpauth.NeedsSignIn:
			out = append(out, s.Error) // one sentence naming pilot mcp login
		case s.State == mcp.Failed:
			out = append(out, fmt.Sprintf("MCP server %s failed: %s (pilot mcp get %s shows its stderr)", s.Name, s.Error, s.Name))
		}
	}
	return out
}
