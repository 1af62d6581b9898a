package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// projectHook writes dir's .claude/settings.json with one PreToolUse hook
// (every tool) running command.
func projectHook(t *testing.T, dir, command string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": command}}}}}})
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// trustYes runs pilot trust --yes on dir.
func trustYes(t *testing.T, env []string, dir string) string {
	t.Helper()
	stdout, stderr, code, _ := filesRun(t, env, "trust", "--project", dir, "--yes")
	if code != 0 {
		t.Fatalf("pilot trust: exit %d\n%s%s", code, stdout, stderr)
	}
	return stdout
}

// exists reports whether path is there.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Finding 6: a trusted project hook runs "$CLAUDE_PROJECT_DIR"/.claude/
// hooks/check.sh. A sandboxed command (edits: no question) cannot rewrite
// it (the pod binds it read-only: EROFS, and the result says why and what
// to do); the trusted script runs. The script rewritten from outside
// voids the trust: the next PreToolUse does not run it (its marker
// absent) and the run says why; pilot trust lists the script, changed.
func TestHookScriptRewriteVoidsTrust(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	marks, dir := t.TempDir(), t.TempDir()
	good, evil := filepath.Join(marks, "good"), filepath.Join(marks, "evil")
	projectHook(t, dir, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`)
	check := filepath.Join(dir, ".claude", "hooks", "check.sh")
	if err := os.MkdirAll(filepath.Dir(check), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(check, []byte("#!/bin/sh\ntouch "+good+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{bashCall("plant", "printf '#!/bin/sh\\ntouch "+evil+"\\n' > .claude/hooks/check.sh")}, Repeat: true, When: &fakellm.When{LastUserContains: "Plant"}},
		{ToolCalls: []fakellm.ToolCall{bashCall("next", "true")}, Repeat: true, When: &fakellm.When{LastUserContains: "Next"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := sandboxHome(t)
	env := filesEnv(t, srv, home, "")
	if out := trustYes(t, env, dir); !strings.Contains(out, "script .claude/hooks/check.sh (") {
		t.Errorf("pilot trust does not list the script:\n%s", out)
	}

	_, stderr, code, _ := filesRun(t, env, "-p", "Plant the hook", "--project", dir, "--approve", "edits")
	if code != 0 {
		t.Fatalf("pilot -p: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(check); strings.Contains(string(b), evil) {
		t.Errorf("a sandboxed command rewrote the trusted hook's script:\n%s", b)
	}
	res := lastResult(t, srv)
	if !strings.Contains(res.Content, "Read-only file system") || !strings.Contains(res.Content, "write_file or patch_file") {
		t.Errorf("the refused rewrite is not explained: %q", res.Content)
	}
	if !exists(good) {
		t.Errorf("the trusted script did not run\n%s", stderr)
	}

	// From outside the sandbox (the user, another program): the trust is gone.
	if err := os.WriteFile(check, []byte("#!/bin/sh\ntouch "+evil+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code, _ = filesRun(t, env, "-p", "Next step", "--project", dir, "--approve", "edits")
	if code != 0 {
		t.Fatalf("pilot -p: exit %d\n%s", code, stderr)
	}
	if exists(evil) {
		t.Fatal("the rewritten script ran on the host")
	}
	if !strings.Contains(stderr, ".claude/hooks/check.sh, which the hooks of") || !strings.Contains(stderr, "changed since you trusted it") {
		t.Errorf("the run does not say why the hook did not run:\n%s", stderr)
	}
	stdout, _, _, _ := filesRun(t, env, "trust", "--project", dir)
	if !strings.Contains(stdout, "script .claude/hooks/check.sh (") || !strings.Contains(stdout, "changed since you trusted it") {
		t.Errorf("pilot trust does not show the changed script:\n%s", stdout)
	}
}

// Finding 10.3: a never-trusted project whose .claude is a link to a
// trusted project's .claude gets no trust: no hook runs there (the
// trusted project's own run shows the hook works), and the run says the
// link was not followed.
func TestLinkedClaudeGetsNoTrust(t *testing.T) {
	t.Parallel()
	marks, trusted, linked := t.TempDir(), t.TempDir(), t.TempDir()
	projectHook(t, trusted, `touch "`+marks+`/ran-in-$(basename "$CLAUDE_PROJECT_DIR")"`)
	if err := os.Symlink(filepath.Join(trusted, ".claude"), filepath.Join(linked, ".claude")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{trusted, linked} {
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "r", Name: "read_file", Input: []byte(`{"path":"a.txt"}`)}}, Repeat: true, When: &fakellm.When{LastUserContains: "Read"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	env := filesEnv(t, srv, t.TempDir(), "")
	trustYes(t, env, trusted)
	for _, dir := range []string{trusted, linked} {
		if _, stderr, code, _ := filesRun(t, env, "-p", "Read a.txt", "--project", dir, "--approve", "none"); code != 0 {
			t.Fatalf("pilot -p in %s: exit %d\n%s", dir, code, stderr)
		} else if dir == linked && !strings.Contains(stderr, ".claude is a link to "+filepath.Join(trusted, ".claude")+", outside the project folder") {
			t.Errorf("the run does not say the link was not followed:\n%s", stderr)
		}
	}
	if !exists(filepath.Join(marks, "ran-in-"+filepath.Base(trusted))) {
		t.Fatal("the hook did not run in the trusted project (the control)")
	}
	if exists(filepath.Join(marks, "ran-in-"+filepath.Base(linked))) {
		t.Error("a project linking to a trusted project's .claude ran its hook")
	}
}
