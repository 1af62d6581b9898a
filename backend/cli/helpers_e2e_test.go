package cli

import (
	"bytes"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// pilot -p with two helpers: the task calls and, indented under them,
// the helpers' own calls are progress lines; the answer uses theirs.
func TestHeadlessHelpers(t *testing.T) {
	t.Parallel()
	helper := func(r fakellm.Request) bool { return strings.Contains(r.System, "You are a helper of Pilot") }
	opening := func(tag string) func(fakellm.Request) bool {
		return func(r fakellm.Request) bool {
			return helper(r) && len(r.ToolResults) == 0 && strings.Contains(r.LastUserText, tag)
		}
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Match: func(r fakellm.Request) bool { return !helper(r) && len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{
			{ID: "t1", Name: "task", Input: []byte(`{"description":"find alpha","prompt":"HELPER-ALPHA where?"}`)},
			{ID: "t2", Name: "task", Input: []byte(`{"description":"find beta","prompt":"HELPER-BETA where?"}`)},
		}},
		{Match: opening("HELPER-ALPHA"), ToolCalls: []fakellm.ToolCall{{ID: "a", Name: "read_file", Input: []byte(`{"path":"alpha.txt"}`)}}},
		{Match: opening("HELPER-BETA"), ToolCalls: []fakellm.ToolCall{{ID: "b", Name: "glob", Input: []byte(`{"pattern":"beta*"}`)}}},
		{Match: helper, When: &fakellm.When{ToolResultContains: "alpha-content"}, Text: "Alpha is in alpha.txt."},
		{Match: helper, When: &fakellm.When{ToolResultContains: "beta.txt"}, Text: "Beta is beta.txt."},
		{When: &fakellm.When{ToolResultContains: "Alpha is in"}, Text: "Both found."},
	}})
	defer srv.Close()
	dir := tempProject(t, map[string]string{"alpha.txt": "alpha-content\n", "beta.txt": "beta\n"})
	cmd := command(t, srv, t.TempDir(), "-p", "Survey the project", "--project", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Both found.") {
		t.Fatalf("stdout %q", stdout.String())
	}
	for _, want := range []string{"→ Helper: find alpha\n", "→ Helper: find beta\n", "\n  → Reading file: alpha.txt\n", "\n  → Finding files: 'beta*'\n"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
