package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/mcp"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

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

func (w *Service) mcpFor(dir string) tools.MCP { return mcpSource{pool: w.mcp, dir: dir} }

// mcpChanged tells the window that a server of the open project changed.
func (w *Service) mcpChanged(st mcp.Status) {
	if st.State == mcp.Failed {
		w.log.Warn("mcp server failed", "server", st.Name, "err", st.Error)
	}
	w.Emit(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: w.currentProject()})
}

// openMCP starts the servers of the project just opened and stops those of
// the project it replaces.
func (w *Service) openMCP(prev, next string) {
	if prev != "" && prev != next {
		go w.mcp.CloseProject(prev)
		go w.langs.closeRoot(prev)
	}
	w.mcp.For(next)
}

// WindowReady starts the MCP servers of the project the window opened on,
// in the background, once the window has made its first call.
func (w *Service) WindowReady() {
	if dir := w.currentProject(); dir != "" {
		w.mcp.For(dir)
	}
}

func (w *Service) mcpHub() (*mcp.Hub, string, error) {
	dir := w.currentProject()
	if dir == "" {
		return nil, "", errors.New("open a project first")
	}
	return w.mcp.For(dir), dir, nil
}

// MCPServers lists the servers of the open project with their state,
// after reading the configuration again (a file edited by hand takes
// effect; a changed .mcp.json stops its servers until trusted again).
func (w *Service) MCPServers() (wire.MCPServers, error) {
	h, dir, err := w.mcpHub()
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
		}
		for _, t := range s.Tools {
			v.Tools = append(v.Tools, wire.MCPTool{Name: t.Name, Tool: t.Tool, Description: t.Description})
		}
		out.Servers = append(out.Servers, v)
	}
	return out, nil
}

// MCPTrustPrompt says whether the open project's .mcp.json or settings
// files wait for the user's trust, with the exact commands they would run
// and the rules they would apply (see trust.go).
func (w *Service) MCPTrustPrompt() (wire.MCPTrustPrompt, error) {
	h, dir, err := w.mcpHub()
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
	p.Changed = need && mcp.WasTrusted(w.home, dir)
	w.withSettings(&p, dir)
	return p, nil
}

// MCPTrust trusts the open project's .mcp.json as shown (hash) and starts
// its servers.
func (w *Service) MCPTrust(hash string) error {
	h, _, err := w.mcpHub()
	if err != nil {
		return err
	}
	if err := h.Trust(hash); err != nil {
		return err
	}
	w.Emit(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: w.currentProject()})
	return nil
}

// MCPSaveServer adds or replaces a server (user or project scope).
func (w *Service) MCPSaveServer(in wire.MCPServerInput) error {
	_, dir, err := w.mcpHub()
	if err != nil {
		return err
	}
	if _, err := w.MCPSaveServerIn(dir, in); err != nil {
		return fmt.Errorf("saving the MCP server: %w", err)
	}
	return w.mcpReload()
}

// MCPRemoveServer removes a server from its scope's file.
func (w *Service) MCPRemoveServer(scope, name string) error {
	_, dir, err := w.mcpHub()
	if err != nil {
		return err
	}
	if err := mcp.Remove(w.home, dir, scope, name); err != nil {
		return err
	}
	return w.mcpReload()
}

// MCPSetDisabled turns a server off (its process stops) or on.
func (w *Service) MCPSetDisabled(scope, name string, disabled bool) error {
	_, dir, err := w.mcpHub()
	if err != nil {
		return err
	}
	if err := mcp.SetDisabled(w.home, dir, scope, name, disabled); err != nil {
		return err
	}
	return w.mcpReload()
}

func (w *Service) mcpReload() error {
	h, _, err := w.mcpHub()
	if err != nil {
		return err
	}
	err = h.Reload()
	w.Emit(wire.MCPUpdated, wire.MCPUpdatedPayload{Project: w.currentProject()})
	return err
}

// MCPResourcePrefix starts an attachment that names an MCP resource:
// "mcp:<server>:<uri>".
const MCPResourcePrefix = "mcp:"

// FindMCPResources lists the open project's MCP resources matching query,
// for the @ picker.
func (w *Service) FindMCPResources(query string, limit int) ([]wire.MCPResource, error) {
	dir := w.currentProject()
	if dir == "" {
		return []wire.MCPResource{}, nil
	}
	out := []wire.MCPResource{}
	for _, r := range w.mcp.For(dir).FindResources(query, limit) {
		out = append(out, wire.MCPResource{Server: r.Server, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
	}
	return out, nil
}

// inlineResources reads the attached MCP resources of a message into its
// text and returns the remaining (file) attachments.
func (w *Service) inlineResources(ctx context.Context, project, text string, attachments []string) (string, []string, error) {
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
		content, err := w.mcp.For(project).ReadResource(ctx, server, uri)
		if err != nil {
			return "", nil, fmt.Errorf("attaching %s: %w", uri, err)
		}
		fmt.Fprintf(&b, "\n\n<resource server=%q uri=%q>\n%s\n</resource>", server, uri, content)
	}
	return b.String(), files, nil
}
