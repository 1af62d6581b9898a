package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// pilot setup with the real binary, on a project with one of each kind:
// --json lists the project's hook, skill, allow rule, MCP server and
// command with file, scope and state (the hook, rule and server
// untrusted, NeedsTrust set); after pilot trust --yes they are active; the
// text form names every item, its state and why, says how to trust, and
// shows the tool names hooks see.
func TestHeadlessSetup(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	for path, text := range map[string]string{
		settings: `{"permissions": {"allow": ["Bash(make:*)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`,
		filepath.Join(dir, ".claude", "skills", "pdf", "SKILL.md"): "---\nname: pdf\ndescription: Fill PDF forms.\n---\nBODY\n",
		filepath.Join(dir, ".mcp.json"):                            `{"mcpServers": {"db": {"command": "db-server"}}}`,
		filepath.Join(dir, ".claude", "commands", "deploy.md"):     "Deploy the app.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setup := func() wire.Setup {
		t.Helper()
		cmd := command(t, srv, home, "setup", "--project", dir, "--json")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pilot setup --json: %v\n%s", err, stderr.String())
		}
		var s wire.Setup
		dec := json.NewDecoder(&stdout)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("pilot setup --json printed %q: %v", stdout.String(), err)
		}
		return s
	}
	type row struct {
		kind       wire.SetupKind
		name, file string
		state      wire.SetupState
	}
	rows := func(s wire.Setup) map[row]bool {
		out := map[row]bool{}
		for _, it := range s.Items {
			// The user's instruction files and CLAUDE.local.md are
			// listed where Pilot looks for them, missing here.
			if it.Scope != "project" && (it.Kind != wire.SetupMemory || it.State != wire.SetupMissing) {
				t.Errorf("scope %q of %+v", it.Scope, it)
			}
			out[row{it.Kind, it.Name, it.File, it.State}] = true
		}
		return out
	}
	want := func(state wire.SetupState) []row {
		return []row{
			{wire.SetupHook, "PreToolUse", settings, state},
			{wire.SetupSkill, "pdf", filepath.Join(dir, ".claude", "skills", "pdf", "SKILL.md"), wire.SetupActive},
			{wire.SetupRule, "Bash(make:*)", settings, state},
			{wire.SetupMCP, "db", filepath.Join(dir, ".mcp.json"), state},
			{wire.SetupCommand, "/deploy", filepath.Join(dir, ".claude", "commands", "deploy.md"), wire.SetupActive},
		}
	}
	s := setup()
	got := rows(s)
	for _, r := range want(wire.SetupUntrusted) {
		if !got[r] {
			t.Errorf("before trust: no %+v in %+v", r, s.Items)
		}
	}
	if !s.NeedsTrust || len(s.ToolNames) == 0 {
		t.Errorf("needsTrust %v, toolNames %v", s.NeedsTrust, s.ToolNames)
	}

	cmd := command(t, srv, home, "setup", "--project", dir)
	var text, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &text, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pilot setup: %v\n%s", err, stderr.String())
	}
	for _, w := range []string{"Hooks:", "untrusted PreToolUse [Bash]  ./guard.sh", "Not trusted: " + settings, "active    pdf  Fill PDF forms.",
		"run pilot trust --project " + dir, "run_bash", "Bash", "write_file", "Write"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("pilot setup lacks %q:\n%s", w, text.String())
		}
	}

	trust := command(t, srv, home, "trust", "--project", dir, "--yes")
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("pilot trust --yes: %v\n%s", err, out)
	}
	s = setup()
	got = rows(s)
	for _, r := range want(wire.SetupActive) {
		if !got[r] {
			t.Errorf("after trust: no %+v in %+v", r, s.Items)
		}
	}
	if s.NeedsTrust {
		t.Error("needsTrust after pilot trust --yes")
	}
}
