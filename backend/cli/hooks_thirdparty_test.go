package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// Hook scripts written for Claude Code by others, run unchanged
// (testdata/hooks/README.md says where each comes from). The first,
// TestHookThirdPartyGuardRunsUnchanged, is in hooks_e2e_test.go.

// thirdParty is the absolute path of a script in testdata/hooks and the
// node that runs it; the test is skipped without node.
func thirdParty(t *testing.T, name string) (node, script string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script, err = filepath.Abs(filepath.Join("testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	return node, script
}

// hookRuns are the hook runs of each tool_result line of --json output, by
// the call's id.
func hookRuns(t *testing.T, stdout string) map[string][]wire.HookRun {
	t.Helper()
	runs := map[string][]wire.HookRun{}
	for _, line := range strings.Split(stdout, "\n") {
		var l wire.ToolResultLine
		if json.Unmarshal([]byte(line), &l) == nil && l.Type == "tool_result" {
			runs[l.ID] = l.Hooks
		}
	}
	return runs
}

// resultsByID are the tool results of the last request that carried any,
// by tool use id.
func resultsByID(t *testing.T, srv *fakellm.Server) map[string]fakellm.ToolResult {
	t.Helper()
	for _, r := range slicesBackward(srv.Requests()) {
		if len(r.ToolResults) > 0 {
			out := map[string]fakellm.ToolResult{}
			for _, res := range r.ToolResults {
				out[res.ToolUseID] = res
			}
			return out
		}
	}
	t.Fatal("the model got no tool result")
	return nil
}

// protect-secrets.js (a file guard for Read|Edit|Write|Bash) blocks the
// model from reading, overwriting or cat-ing .env, with its own reason in
// the tool result, and lets a harmless file be read.
func TestHookThirdPartyFileGuardRunsUnchanged(t *testing.T) {
	t.Parallel()
	node, guard := thirdParty(t, "protect-secrets.js")
	home := hookHome(t, hooked("PreToolUse", "Read|Edit|Write|Bash", node+" "+guard, 0))
	const secret = "API_KEY=sk-live-0123456789abcdef\n"
	dir := tempProject(t, map[string]string{".env": secret, "notes.txt": "Standup moved to noon.\n"})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "read_env", Name: "read_file", Input: []byte(`{"path":".env"}`)},
			{ID: "write_env", Name: "write_file", Input: []byte(`{"path":".env","content":"API_KEY=leaked\n"}`)},
			{ID: "cat_env", Name: "run_bash", Input: []byte(`{"command":"cat .env"}`)},
			{ID: "read_notes", Name: "read_file", Input: []byte(`{"path":"notes.txt"}`)},
		}, Repeat: true, When: &fakellm.When{LastUserContains: "keys"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, dir, "find the API keys", "--approve", "all", "--json")
	if err != nil {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	results, runs := resultsByID(t, srv), hookRuns(t, stdout)
	for _, c := range []struct{ id, reason string }{
		{"read_env", "[env-file] Cannot read: .env file contains secrets"},
		{"write_env", "[env-file] Cannot write to: .env file contains secrets"},
		{"cat_env", "[cat-env] Cannot execute: Reading .env file exposes secrets"},
		{"read_notes", ""},
	} {
		res, ok := results[c.id]
		if !ok {
			t.Errorf("%s: no tool result in %+v", c.id, results)
			continue
		}
		if strings.Contains(res.Content, "sk-live") {
			t.Errorf("%s: the secret reached the model: %s", c.id, res.Content)
		}
		want := wire.HookDeny
		if c.reason == "" {
			want = wire.HookNone
			if res.IsError || !strings.Contains(res.Content, "Standup moved to noon.") {
				t.Errorf("%s: the harmless read did not pass: %+v", c.id, res)
			}
		} else if !res.IsError || !strings.Contains(res.Content, c.reason) {
			t.Errorf("%s: tool result %+v, want the guard's reason %q", c.id, res, c.reason)
		}
		if r := runs[c.id]; len(r) != 1 || r[0].Event != "PreToolUse" || r[0].Decision != want || !strings.HasSuffix(r[0].Hook, "protect-secrets.js") {
			t.Errorf("%s: hook runs %+v, want one PreToolUse run that decided %s", c.id, r, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".env")); err != nil || string(b) != secret {
		t.Errorf(".env = %q (%v), want it untouched", b, err)
	}
}

// format-code.js (a PostToolUse formatter for Write|Edit) formats the file
// the model wrote and the one it patched. It calls prettier through `npx
// --yes prettier --write` (and ruff through uv for Python); neither is on
// this machine or in CI and npx --yes would download prettier, so a
// stand-in npx on PATH plays prettier for JSON (node's JSON.stringify with
// two spaces) and records how the hook called it. The hook itself runs as
// published.
func TestHookThirdPartyFormatterRunsUnchanged(t *testing.T) {
	t.Parallel()
	node, formatter := thirdParty(t, "format-code.js")
	bin := t.TempDir()
	script(t, bin, "npx", `{ pwd -P; printf '%s\n' "$@"; } >> "$HOME/npx.txt"
[ "$1 $2 $3 $#" = "--yes prettier --write 4" ] || { echo "the stand-in only plays prettier --write" >&2; exit 1; }
exec `+node+` -e 'const fs = require("fs"), f = process.argv[1]; fs.writeFileSync(f, JSON.stringify(JSON.parse(fs.readFileSync(f, "utf8")), null, 2) + "\n")' "$4"
`)
	home := hookHome(t, hooked("PostToolUse", "Write|Edit", node+" "+formatter, 0))
	dir := tempProject(t, map[string]string{"package.json": `{"name":"pilot","version":"1.0.0"}`})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "write_json", Name: "write_file", Input: []byte(`{"path":"config/app.json","content":"{\"name\":\"pilot\",   \"tags\":[\"a\",\"b\"],\"debug\":{\"on\":true}}"}`)},
			{ID: "patch_json", Name: "patch_file", Input: []byte(`{"path":"package.json","old_text":"1.0.0","new_text":"1.0.1"}`)},
		}, Repeat: true, When: &fakellm.When{LastUserContains: "settings"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	cmd := command(t, srv, home, "-p", "write the settings", "--project", dir, "--approve", "all", "--json")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PATH=") {
			cmd.Env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout.String(), stderr.String())
	}
	runs := hookRuns(t, stdout.String())
	for _, c := range []struct{ id, file, want string }{
		{"write_json", filepath.Join("config", "app.json"), "{\n  \"name\": \"pilot\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ],\n  \"debug\": {\n    \"on\": true\n  }\n}\n"},
		{"patch_json", "package.json", "{\n  \"name\": \"pilot\",\n  \"version\": \"1.0.1\"\n}\n"},
	} {
		file := filepath.Join(dir, c.file)
		if b, err := os.ReadFile(file); err != nil || string(b) != c.want {
			t.Errorf("%s = %q (%v), want it formatted:\n%s", c.file, b, err, c.want)
		}
		// The hook called the formatter on the file, from its folder.
		folder, _ := filepath.EvalSymlinks(filepath.Dir(file))
		real, _ := filepath.EvalSymlinks(file)
		call := folder + "\n--yes\nprettier\n--write\n"
		if b, _ := os.ReadFile(filepath.Join(home, "npx.txt")); !strings.Contains(string(b), call+file+"\n") && !strings.Contains(string(b), call+real+"\n") {
			t.Errorf("%s: the hook ran npx as %q", c.file, b)
		}
		if r := runs[c.id]; len(r) != 1 || r[0].Event != "PostToolUse" || r[0].Decision != wire.HookNone ||
			r[0].ExitCode != 0 || !strings.HasSuffix(r[0].Hook, "format-code.js") {
			t.Errorf("%s: hook runs %+v, want one PostToolUse run of format-code.js on its tool_result line\n%s", c.id, r, stdout.String())
		}
	}
	// The hook's own log says it formatted both files.
	logs, _ := filepath.Glob(filepath.Join(home, ".claude", "hooks-logs", "*.jsonl"))
	var log []byte
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		log = append(log, b...)
	}
	if n := strings.Count(string(log), `"level":"FORMATTED","formatter":"prettier"`); n != 2 {
		t.Errorf("the hook's log has %d files formatted, want 2: %s", n, log)
	}
}
