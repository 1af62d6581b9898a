package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// Finding 10.4 of issue 36, on the production binary: five different
// malformed calls in one answer each get their own result and the turn
// goes on (pilot -p exits 0 with the answer); the same call three times
// stops the turn with exit 1, and the notice names that call and its
// input, not the answer's last call.
func TestLoopGuardBinary(t *testing.T) {
	t.Parallel()
	t.Run("different malformed calls", func(t *testing.T) {
		t.Parallel()
		srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.ToolCall{
				{ID: "b1", Name: "read_file", RawInput: `{"path": `},
				{ID: "b2", Name: "read_file", RawInput: `{"path": "a`},
				{ID: "b3", Name: "read_file", RawInput: `["a.txt"]`},
				{ID: "b4", Name: "read_file", RawInput: `"a.txt"`},
				{ID: "b5", Name: "read_file", RawInput: `{"path": "a.txt"`},
			}},
			{Text: "I will send whole JSON objects.", When: &fakellm.When{HasToolResult: true}},
		}})
		defer srv.Close()
		dir := tempProject(t, map[string]string{"a.txt": "A\n"})
		cmd := command(t, srv, t.TempDir(), "-p", "read a.txt", "--project", dir, "--approve", "none")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pilot -p: %v (the docs: exit 0 for a turn that ended)\n%s", err, stderr.String())
		}
		if !strings.Contains(stdout.String(), "I will send whole JSON objects.") {
			t.Errorf("stdout %q", stdout.String())
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || len(reqs[1].ToolResults) != 5 {
			t.Fatalf("%d requests; stderr:\n%s", len(reqs), stderr.String())
		}
		for i, r := range reqs[1].ToolResults {
			if want := "b" + string(rune('1'+i)); r.ToolUseID != want || !strings.Contains(r.Content, "could not be used") {
				t.Errorf("result %d: %+v, want %s's own sentence", i, r, want)
			}
		}
	})
	t.Run("the same call", func(t *testing.T) {
		t.Parallel()
		read := fakellm.ToolCall{Name: "read_file", Input: []byte(`{"path":"a.txt"}`)}
		srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
			{ToolCalls: []fakellm.ToolCall{read, read, read, {Name: "list_files", Input: []byte(`{}`)}}},
		}})
		defer srv.Close()
		dir := tempProject(t, map[string]string{"a.txt": "A\n"})
		cmd := command(t, srv, t.TempDir(), "-p", "read a.txt", "--project", dir, "--approve", "none")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("pilot -p: %v, want exit 1\n%s", err, stderr.String())
		}
		if s := stderr.String(); !strings.Contains(s, `The agent called read_file with the same input 3 times in a row ({"path":"a.txt"})`) ||
			!strings.Contains(s, "stopped: the agent repeated the same tool call") || strings.Contains(s, "called list_files") {
			t.Errorf("stderr does not name the repeated call:\n%s", s)
		}
	})
}
