package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// pilot -p in a project with sub/AGENTS.md: the model sees that file's
// text only in the result of the first read of a file below sub/, framed
// as the project's instructions for the files under sub/; not in the
// system prompt, not before (a read at the root), not again after. The
// user's ~/.claude/CLAUDE.md and the root's AGENTS.md are in the system
// prompt from the start. A rule whose paths: names sub/y.go comes with
// the read of sub/y.go only.
func TestNestedInstructionsReachTheModelAfterARead(t *testing.T) {
	t.Parallel()
	const canary = "SUB-CANARY-3f9a: use tabs under sub"
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "look"}, ToolCalls: []fakellm.ToolCall{{ID: "r1", Name: "read_file", Input: json.RawMessage(`{"path":"top.go"}`)}}},
		{When: &fakellm.When{ToolResultContains: "package top"}, ToolCalls: []fakellm.ToolCall{{ID: "r2", Name: "read_file", Input: json.RawMessage(`{"path":"sub/x.go"}`)}}},
		{When: &fakellm.When{ToolResultContains: "package x"}, ToolCalls: []fakellm.ToolCall{{ID: "r3", Name: "read_file", Input: json.RawMessage(`{"path":"sub/y.go"}`)}}},
		{When: &fakellm.When{ToolResultContains: "package y"}, Text: "Done."},
	}})
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()
	for name, text := range map[string]string{
		filepath.Join(home, ".claude", "CLAUDE.md"): "USER-LEVEL-CANARY", filepath.Join(dir, "AGENTS.md"): "ROOT-CANARY",
		filepath.Join(dir, "top.go"): "package top\n", filepath.Join(dir, "sub", "x.go"): "package x\n", filepath.Join(dir, "sub", "y.go"): "package y\n",
		filepath.Join(dir, "sub", "AGENTS.md"):         canary + "\n",
		filepath.Join(dir, ".claude", "rules", "y.md"): "---\npaths:\n  - \"sub/y.go\"\n---\nRULE-CANARY-77b\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code, _ := filesRun(t, filesEnv(t, srv, home, ""), "-p", "look around", "--project", dir, "--approve", "none")
	if code != 0 || !strings.Contains(stdout, "Done.") {
		t.Fatalf("pilot -p: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := strings.Count(stderr, "(gave the model the project's instructions in sub/AGENTS.md)"); n != 1 {
		t.Errorf("stderr says %d times that sub/AGENTS.md was given, want once:\n%s", n, stderr)
	}
	var turns []fakellm.Request
	for _, r := range srv.Requests() {
		if strings.Contains(r.System, "You are Pilot") {
			turns = append(turns, r)
		}
	}
	if len(turns) != 4 {
		t.Fatalf("%d model calls, want 4", len(turns))
	}
	if !strings.Contains(turns[0].System, "USER-LEVEL-CANARY") || !strings.Contains(turns[0].System, "ROOT-CANARY") {
		t.Errorf("the system prompt lacks the user's or the root's instructions")
	}
	for i, r := range turns {
		body, _ := json.Marshal(r.Body)
		n := strings.Count(string(body), "SUB-CANARY-3f9a")
		want := 0
		if i >= 2 {
			want = 1 // in the result of the read of sub/x.go, kept in the history after
		}
		if n != want {
			t.Errorf("model call %d carries sub/AGENTS.md's text %d times, want %d", i, n, want)
		}
		if n, want := strings.Count(string(body), "RULE-CANARY-77b"), min(max(i-2, 0), 1); n != want {
			t.Errorf("model call %d carries the rule's text %d times, want %d", i, n, want)
		}
	}
	if res := turns[3].ToolResults; len(res) != 1 || !strings.Contains(res[0].Content, "<instructions from .claude/rules/y.md apply to files matching sub/y.go>") {
		t.Errorf("the read of sub/y.go's result: %+v", res)
	}
	res := turns[2].ToolResults
	if len(res) != 1 || !strings.Contains(res[0].Content, "package x") || !strings.Contains(res[0].Content, "<instructions from sub/AGENTS.md apply to files under sub/>") {
		t.Errorf("the read of sub/x.go's result: %+v", res)
	}
}
