package service

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/mcptest"
	"pilot/backend/mcp"
	"pilot/backend/store"
	"pilot/backend/wire"
)

func mustProject(t *testing.T, w *Service, dir string) int64 {
	t.Helper()
	p, err := w.core.store.Projects.Touch(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func waitServer(t *testing.T, w *Service, name string, state wire.MCPState) wire.MCPServer {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var last wire.MCPServers
	for time.Now().Before(deadline) {
		last, _ = w.MCP.Servers()
		for _, s := range last.Servers {
			if s.Name == name && s.State == state {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never %s: %+v", name, state, last)
	return wire.MCPServer{}
}

// childPIDs lists the processes whose parent is this test process.
func childPIDs() []string {
	me := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]); len(f) > 1 && f[1] == me {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestMCPTrustServersAndReaping(t *testing.T) {
	// Not parallel: it counts this process's children.
	exe, args, err := mcptest.Command()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	if err := mcp.WriteScope("", dir, mcp.ScopeProject, mcp.File{Servers: map[string]mcp.Server{
		"t": {Command: exe, Args: args, Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}},
	}}); err != nil {
		t.Fatal(err)
	}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	w.SetEmitter(rec)
	if _, err := w.Projects.Open(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	p, err := w.MCP.TrustPrompt()
	if err != nil || !p.Needed || len(p.Servers) != 1 || !strings.Contains(p.Servers[0].Display, exe) {
		t.Fatalf("trust prompt %+v %v", p, err)
	}
	if s := waitServer(t, w, "t", "disabled"); !strings.Contains(s.Error, "trust") || s.Stderr == nil || s.Tools == nil {
		t.Fatalf("untrusted server %+v (lists must be [] for the window, not null)", s)
	}
	if len(childPIDs()) != 0 {
		t.Fatalf("an untrusted .mcp.json started %v", childPIDs())
	}
	if err := w.MCP.Trust(p.Hash); err != nil {
		t.Fatal(err)
	}
	s := waitServer(t, w, "t", "ready")
	if len(s.Tools) == 0 || s.Scope != "project" || !slices.Contains(rec.names(), wire.MCPUpdated) {
		t.Fatalf("ready server %+v, events %v", s, rec.names())
	}
	if p, _ := w.MCP.TrustPrompt(); p.Needed {
		t.Fatal("still asks after trust")
	}
	// The / picker lists custom commands and the server's prompts.
	os.MkdirAll(filepath.Join(dir, ".claude", "commands"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude", "commands", "fix.md"), []byte("Fix $ARGUMENTS"), 0o644)
	cmds, err := w.Turns.SlashCommands(context.Background(), 0)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name+"/"+string(c.Source))
	}
	if err != nil || strings.Join(names, ",") != "fix/project-claude,mcp__t__review/mcp" {
		t.Fatalf("slash commands %v %v", names, err)
	}
	sess, err := w.core.store.Sessions.Create(context.Background(), store.NewSession{ProjectID: mustProject(t, w, dir), Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.MCP.FindResources("todo", 5)
	if err != nil || len(res) != 1 || res[0].URI != "test://notes/todo" {
		t.Fatalf("resources %+v %v", res, err)
	}
	text, files, err := w.Turns.withResources(context.Background(), sess.ID, "see", []string{"a.go", "mcp:t:test://notes/todo"})
	if err != nil || strings.Join(files, ",") != "a.go" || !strings.Contains(text, "see\n\n<resource server=\"t\" uri=\"test://notes/todo\">\n- write the docs\n</resource>") {
		t.Fatalf("inlined %q %v %v", text, files, err)
	}
	for in, want := range map[string]string{"/fix the bug": "Fix the bug", "/mcp__t__review a.go leaks": "Review a.go for leaks.", "plain": "plain"} {
		if got, err := w.Turns.expandCommand(context.Background(), sess.ID, in); err != nil || got != want {
			t.Fatalf("expand %q: %q %v", in, got, err)
		}
	}
	// Disable stops it; a user server can be added and removed.
	if err := w.MCP.SetDisabled("project", "t", true); err != nil {
		t.Fatal(err)
	}
	waitServer(t, w, "t", "disabled")
	if p, _ := w.MCP.TrustPrompt(); p.Needed {
		t.Fatal("an edit made in Pilot asked for trust again")
	}
	if err := w.MCP.SetDisabled("project", "t", false); err != nil {
		t.Fatal(err)
	}
	waitServer(t, w, "t", "ready")
	if err := w.MCP.SaveServer(wire.MCPServerInput{Scope: "user", Name: "u", Type: "stdio", Command: exe, Args: args, Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}}); err != nil {
		t.Fatal(err)
	}
	waitServer(t, w, "u", "ready")
	if err := w.MCP.SaveServer(wire.MCPServerInput{Scope: "user", Name: "bad", Type: "http"}); err == nil || !strings.Contains(err.Error(), "url") {
		t.Fatalf("an http server without a url: %v", err)
	}
	if err := w.MCP.RemoveServer("user", "u"); err != nil {
		t.Fatal(err)
	}
	if len(childPIDs()) == 0 {
		t.Fatal("no server process is running")
	}
	// The file changed by hand while the project is open: asked again, its server stopped.
	b, _ := os.ReadFile(mcp.ProjectPath(dir))
	os.WriteFile(mcp.ProjectPath(dir), append(b, ' '), 0o644)
	if p, _ := w.MCP.TrustPrompt(); !p.Needed || !p.Changed {
		t.Fatalf("a changed .mcp.json was not asked about again: %+v", p)
	}
	waitServer(t, w, "t", "disabled")
	w.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(childPIDs()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c := childPIDs(); len(c) > 0 {
		t.Fatalf("server processes left after Close: %v", c)
	}
}

// The servers of the project the window opens on (PILOT_PROJECT) start
// only once the window has made its first call, so they never hold it back.
func TestMCPStartsWhenTheWindowIsReady(t *testing.T) {
	// Not parallel: it counts this process's children.
	exe, args, err := mcptest.Command()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	if err := mcp.WriteScope(home, "", mcp.ScopeUser, mcp.File{Servers: map[string]mcp.Server{
		"u": {Command: exe, Args: args, Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}},
	}}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PILOT_PROJECT": dir}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	time.Sleep(500 * time.Millisecond) // what a server would need to be started
	if c := childPIDs(); len(c) != 0 {
		t.Fatalf("servers started before the window was ready: %v", c)
	}
	w.MCP.WindowReady()
	if s := waitServer(t, w, "u", "ready"); s.Scope != "user" || len(childPIDs()) != 1 {
		t.Fatalf("server %+v, children %v", s, childPIDs())
	}
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestMCPTimeoutSetting(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	in := wire.SettingsInput{Provider: "anthropic", ApprovalMode: "ask"}
	if v, err := w.Settings.Get(); err != nil || v.MCPTimeoutSeconds != 60 {
		t.Fatalf("default %d %v", v.MCPTimeoutSeconds, err)
	}
	in.MCPTimeoutSeconds = 5000
	if _, err := w.Settings.Save(in); err == nil || !strings.Contains(err.Error(), "1 to 3600") {
		t.Fatalf("5000 s accepted: %v", err)
	}
	in.MCPTimeoutSeconds = 15
	if v, err := w.Settings.Save(in); err != nil || v.MCPTimeoutSeconds != 15 {
		t.Fatalf("saved %d %v", v.MCPTimeoutSeconds, err)
	}
	if o := mcp.HomeOptions(w.core.home, "", nil); o.CallTimeout != 15*time.Second {
		t.Fatalf("a restart would use %s", o.CallTimeout)
	}
}

// One pool serves every face: `pilot mcp list --project DIR` (StatusIn)
// reads the servers of the pool's hub, so for the project the window has
// open it shows the servers running and starts no second copy of them
// (each copy here takes a lock the other cannot: a second one fails).
func TestMCPOnePoolForEveryFace(t *testing.T) {
	// Not parallel: it counts this process's children.
	exe, args, err := mcptest.Command()
	if err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	lock := filepath.Join(t.TempDir(), "lock")
	once := append([]string{"-c", `/bin/mkdir "$0" || exit 1; exec "$@"`, lock, exe}, args...)
	if err := mcp.WriteScope(home, "", mcp.ScopeUser, mcp.File{Servers: map[string]mcp.Server{
		"u": {Command: "/bin/sh", Args: once, Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}},
	}}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PILOT_PROJECT": dir}
	w, err := Open(context.Background(), Options{Home: home, Log: discardLog(), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.MCP.WindowReady()
	waitServer(t, w, "u", "ready")
	st, _, err := w.MCP.StatusIn(context.Background(), dir)
	if err != nil || len(st) != 1 || st[0].State != "ready" {
		t.Fatalf("the open project's servers through StatusIn: %+v, %v", st, err)
	}
	if s := waitServer(t, w, "u", "ready"); len(childPIDs()) != 1 {
		t.Fatalf("after StatusIn: server %+v, children %v", s, childPIDs())
	}
}
