package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// A folder is found by the path given or by its real path, never opened
// by looking; AddProject remembers it by its real path, as the window
// opens folders, so a link and its target are one project.
func TestFindAndAddProject(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Projects.Find(ctx, link); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a folder never opened: %v, want ErrNotFound", err)
	}
	if ps, _ := w.Projects.List(ctx); len(ps) != 0 {
		t.Fatalf("looking opened %v", ps)
	}
	added, err := w.Projects.Add(ctx, link)
	if err != nil || added.Path != real {
		t.Fatalf("AddProject(link) = %+v, %v; want the real path %s", added, err, real)
	}
	for _, dir := range []string{link, real} {
		if p, err := w.Projects.Find(ctx, dir); err != nil || p.ID != added.ID {
			t.Errorf("FindProject(%s) = %+v, %v; want project %d", dir, p, err, added.ID)
		}
	}
	if w.core.currentProject() != "" {
		t.Errorf("AddProject made %s the open project", w.core.currentProject())
	}
}

// RemoveRule removes only the project's own rule and says so when the
// id is another project's.
func TestRemoveRuleOfTheProjectOnly(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	a, _ := w.Projects.Add(ctx, t.TempDir())
	b, _ := w.Projects.Add(ctx, t.TempDir())
	r, err := w.Rules.Add(ctx, a.ID, "run_bash", "go test *", "allow")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Rules.Remove(ctx, b.ID, r.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another project's rule: %v, want ErrNotFound", err)
	}
	if got, err := w.Rules.Remove(ctx, a.ID, r.ID); err != nil || got.Pattern != "go test *" {
		t.Fatalf("RemoveRule = %+v, %v", got, err)
	}
	if rs, _ := w.Rules.List(ctx, a.ID); len(rs) != 0 {
		t.Errorf("left %+v", rs)
	}
}

// An import comes in at the default approval mode of Settings, not the
// file's, into the project it is given.
func TestImportSessionTakesTheUsersMode(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w := openAt(t, home, nil)
	t.Cleanup(w.Close)
	ctx := context.Background()
	if err := config.SaveSettings(home, config.Settings{ApprovalMode: config.ApproveEdits}); err != nil {
		t.Fatal(err)
	}
	src, _ := w.Projects.Add(ctx, t.TempDir())
	s, err := w.Sessions.New(ctx, src.ID)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := w.Sessions.Export(ctx, s.ID, "json")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(file, []byte(strings.Replace(doc, `"approvalMode": "edits"`, `"approvalMode": "all"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	dest := t.TempDir()
	x, p, err := w.Records.Import(ctx, dest, file)
	if err != nil || p.Path != dest || x.ProjectID != p.ID || x.ApprovalMode != config.ApproveEdits {
		t.Fatalf("ImportSession = %+v in %+v, %v; want mode edits in %s", x, p, err, dest)
	}
	if _, _, err := w.Records.Import(ctx, filepath.Join(dest, "nope"), file); err == nil || !strings.Contains(err.Error(), "the project folder") {
		t.Errorf("a missing folder: %v", err)
	}
}

// ModelsIn marks a configuration that cannot work as ErrSettings, apart
// from a server that cannot be reached, whose sentence holds no key.
func TestModelsInTellsSettingsFromServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorkspace(t, map[string]string{"PILOT_PROVIDER": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "OPENAI_API_KEY": "sk-secret-value"})
	if _, err := w.Settings.ModelsIn(ctx, t.TempDir(), "no-such-provider"); !errors.Is(err, ErrSettings) {
		t.Errorf("an unknown provider: %v, want ErrSettings", err)
	}
	_, err := w.Settings.ModelsIn(ctx, t.TempDir(), "")
	if err == nil || errors.Is(err, ErrSettings) || strings.Contains(err.Error(), "sk-secret-value") {
		t.Errorf("an unreachable server: %v", err)
	}
}

// The MCP configuration of a folder named by the caller: a save says where
// it went, a name in both scopes must be told apart, and the trust prompt
// says whether there is a file and whether it is trusted (a file changed
// outside Pilot is not, and says it was before).
func TestMCPConfigurationOfAFolder(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	w := openAt(t, home, nil)
	t.Cleanup(w.Close)
	dir := t.TempDir()
	if p, err := w.MCP.TrustPromptIn(dir); err != nil || p.Hash != "" || p.Needed {
		t.Fatalf("no .mcp.json: %+v, %v", p, err)
	}
	for _, scope := range []string{"", "project"} {
		ch, err := w.MCP.SaveServerIn(dir, wireInput(scope, " fs ", "npx"))
		if err != nil || ch.Name != "fs" || ch.Replaced {
			t.Fatalf("save %q: %+v, %v", scope, ch, err)
		}
	}
	if ch, err := w.MCP.SaveServerIn(dir, wireInput("user", "fs", "uvx")); err != nil || !ch.Replaced || ch.Path != filepath.Join(home, "mcp.json") || ch.Display != "uvx" {
		t.Fatalf("replace: %+v, %v", ch, err)
	}
	if _, err := w.MCP.RemoveServerIn(dir, "", "fs"); err == nil || !strings.Contains(err.Error(), "in both the user and the project configuration") {
		t.Fatalf("a name in both scopes: %v", err)
	}
	if p, err := w.MCP.TrustPromptIn(dir); err != nil || p.Needed || p.Hash == "" {
		t.Fatalf("a .mcp.json the user wrote here is trusted: %+v, %v", p, err)
	}
	pulled := `{"mcpServers": {"fs": {"command": "npx"}, "db": {"command": "db-server"}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(pulled), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := w.MCP.TrustPromptIn(dir)
	if err != nil || !p.Needed || !p.Changed || len(p.Servers) != 2 || p.Servers[0].Display != "db-server" {
		t.Fatalf("a .mcp.json changed outside Pilot: %+v, %v", p, err)
	}
	if err := w.MCP.TrustIn(dir, p.Hash); err != nil {
		t.Fatal(err)
	}
	if p, err := w.MCP.TrustPromptIn(dir); err != nil || p.Needed || p.Hash == "" {
		t.Fatalf("trusted: %+v, %v", p, err)
	}
	if ch, err := w.MCP.RemoveServerIn(dir, "project", "fs"); err != nil || ch.Path != filepath.Join(dir, ".mcp.json") {
		t.Fatalf("remove: %+v, %v", ch, err)
	}
}

func wireInput(scope, name, command string) wire.MCPServerInput {
	return wire.MCPServerInput{Scope: wire.MCPScope(scope), Name: name, Type: "stdio", Command: command}
}
