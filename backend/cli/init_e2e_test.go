package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestRememberUserThroughTheBinary: /remember-user has the model call
// remember; without a yes (edits mode, no terminal: asked, so refused)
// the user's file stays as it was, with --approve all it gets the line,
// and the next session's system prompt carries it. /remember without
// text is not run and says what to type.
func TestRememberUserThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "remember", Input: []byte(`{"text":"Answer in British English."}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Remember this for every project"}},
		{Text: "Noted.", Repeat: true},
	}})
	defer srv.Close()
	home := t.TempDir()
	file := filepath.Join(home, ".claude", "CLAUDE.md")
	dir := tempProject(t, map[string]string{"main.go": "package main\n"})
	for _, c := range []struct {
		approve string
		want    string
	}{{"edits", ""}, {"all", "- Answer in British English.\n"}} {
		cmd := command(t, srv, home, "-p", "/remember-user answer in British English", "--project", dir, "--approve", c.approve)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("--approve %s: %v\n%s", c.approve, err, stderr.String())
		}
		if b, _ := os.ReadFile(file); string(b) != c.want {
			t.Errorf("--approve %s: the user's file holds %q, want %q\n%s", c.approve, b, c.want, stderr.String())
		}
	}
	if err := command(t, srv, home, "-p", "Hello", "--project", dir, "--approve", "none").Run(); err != nil {
		t.Fatal(err)
	}
	reqs := srv.ModelRequests()
	if last := reqs[len(reqs)-1]; last.LastUserText != "Hello" || !strings.Contains(last.System, "- Answer in British English.") {
		t.Errorf("the next session's system prompt lacks the line (last user text %q)", last.LastUserText)
	}
	cmd := command(t, srv, home, "-p", "/remember", "--project", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "say what to remember after it") {
		t.Errorf("/remember without text: %v\n%s", err, stderr.String())
	}
}
