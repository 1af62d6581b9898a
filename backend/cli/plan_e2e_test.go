package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// TestHeadlessPlan: `pilot -p --approve plan` against a model that tries
// to write a file and run a command anyway: neither reaches the disk or a
// shell, the task list's changes are "→" lines, the plan is printed, and
// the run exits 0 saying how to carry it out. Resuming the session in
// another mode carries it out, and the list's progress is told as changes
// from the stored list.
func TestHeadlessPlan(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "w1", Name: "write_file", Input: []byte(`{"path":"evil.txt","content":"x"}`)},
			{ID: "b1", Name: "run_bash", Input: []byte(`{"command":"touch ran.txt"}`)},
			{ID: "t1", Name: "todo_write", Input: []byte(`{"todos":[{"content":"Mark the notes final","status":"pending"},{"content":"Check them","status":"pending"}]}`)},
		}, When: &fakellm.When{LastUserContains: "Plan"}},
		{Text: "Here is my plan.", ToolCalls: []fakellm.ToolCall{
			{ID: "p1", Name: "present_plan", Input: []byte(`{"plan":"## Goal\nMark the notes final.","steps":["Mark the notes final","Check them"]}`)},
		}, When: &fakellm.When{ToolResultContains: "plan mode"}},
		{ToolCalls: []fakellm.ToolCall{
			{ID: "t2", Name: "todo_write", Input: []byte(`{"todos":[{"content":"Mark the notes final","status":"done"},{"content":"Check them","status":"in_progress"}]}`)},
			{ID: "e1", Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)},
		}, When: &fakellm.When{LastUserContains: "I approve"}},
		{Text: "Done.", When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := command(t, srv, home, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	stdout, stderr := run("-p", "Plan marking the notes final", "--project", dir, "--approve", "plan")
	for _, name := range []string{"evil.txt", "ran.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s exists: a call refused in plan mode ran", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "status: draft\n" {
		t.Errorf("notes.txt changed in plan mode: %q", b)
	}
	if want := "Here is my plan.\n\n## Goal\nMark the notes final.\n\nSteps:\n1. Mark the notes final\n2. Check them\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	for _, want := range []string{
		"→ Writing file: evil.txt", "  (rejected)", "→ Running bash: touch ran.txt",
		"→ Task added: Mark the notes final\n→ Task added: Check them\n",
		"→ Presenting the plan (2 steps)",
		"the plan is ready (session ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	m := regexp.MustCompile(`--resume (\d+)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no session to resume in %q", stderr)
	}
	_, stderr = run("-p", "I approve the plan: carry it out", "--resume", m[1], "--approve", "edits")
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "status: final\n" {
		t.Errorf("notes.txt after approval: %q", b)
	}
	if want := "→ Task done: Mark the notes final (1/2)\n→ Task started: Check them\n"; !strings.Contains(stderr, want) || strings.Contains(stderr, "Task added") {
		t.Errorf("stderr lacks %q (changes from the stored list):\n%s", want, stderr)
	}
}
