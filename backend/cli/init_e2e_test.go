package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/internal/fakellm"
)

// TestInitProposesAgentsMD: /init asks the model for a first AGENTS.md,
// and the file it writes is a proposal like any other: refused under
// --approve none (nothing written), written once approved.
func TestInitProposesAgentsMD(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: []byte(`{"path":"AGENTS.md","content":"# Build\n\nmake test\n"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Write a first AGENTS.md for this project"}},
		{Text: "Proposed.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		{Text: "Title", Repeat: true},
	}})
	defer srv.Close()
	home := t.TempDir()
	for _, c := range []struct {
		approve string
		written bool
	}{{"none", false}, {"all", true}} {
		dir := tempProject(t, map[string]string{"main.go": "package main\n"})
		cmd := command(t, srv, home, "-p", "/init", "--project", dir, "--approve", c.approve)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("--approve %s: %v\n%s", c.approve, err, stderr.String())
		}
		_, err := os.Stat(filepath.Join(dir, "AGENTS.md"))
		if written := err == nil; written != c.written {
			t.Errorf("--approve %s: AGENTS.md written %v, want %v\n%s", c.approve, written, c.written, stderr.String())
		}
	}
}
