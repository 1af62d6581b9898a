package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// hookHome is a HOME whose ~/.claude/settings.json holds settings (the
// user's own file: its hooks need no trust).
func hookHome(t *testing.T, settings string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// script writes an executable sh script into dir and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// hooked is one settings.json with one command hook.
func hooked(event, matcher, command string, timeout int) string {
	h := map[string]any{"type": "command", "command": command}
	if timeout > 0 {
		h["timeout"] = timeout
	}
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}}})
	return string(b)
}

// runPrompt runs pilot -p and returns stdout, stderr and the error.
func runPrompt(t *testing.T, srv *fakellm.Server, home, dir, prompt string, extra ...string) (string, string, error) {
	t.Helper()
	cmd := command(t, srv, home, append([]string{"-p", prompt, "--project", dir}, extra...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// toolThenDone is a model that makes one call when the prompt contains
// trigger, then says Done. once it has the result.
func toolThenDone(trigger string, call fakellm.ToolCall) *fakellm.Server {
	return fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{call}, Repeat: true, When: &fakellm.When{LastUserContains: trigger}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
}

// lastResult is the tool result the model got last.
func lastResult(t *testing.T, srv *fakellm.Server) fakellm.ToolResult {
	t.Helper()
	for _, r := range slicesBackward(srv.Requests()) {
		if len(r.ToolResults) > 0 {
			return r.ToolResults[0]
		}
	}
	t.Fatal("the model got no tool result")
	return fakellm.ToolResult{}
}

func slicesBackward[T any](s []T) []T {
	out := make([]T, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

func TestHookPreToolUseExit2BlocksBash(t *testing.T) {
	t.Parallel()
	tools := t.TempDir()
	guard := script(t, tools, "guard.sh", `cat > "$HOME/pre.json"; echo "No rm here: use the trash command instead." >&2; exit 2`+"\n")
	home := hookHome(t, hooked("PreToolUse", "Bash", guard, 0))
	dir := t.TempDir()
	srv := toolThenDone("clean", fakellm.ToolCall{Name: "run_bash", Input: []byte(`{"command":"touch ran.txt"}`)})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, dir, "clean up", "--approve", "all")
	if err != nil || stdout != "Done.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("the blocked command ran")
	}
	res := lastResult(t, srv)
	if !res.IsError || !strings.Contains(res.Content, "No rm here: use the trash command instead.") || !strings.Contains(res.Content, "PreToolUse hook") {
		t.Errorf("tool result %+v", res)
	}
	var in struct {
		HookEventName string                   `json:"hook_event_name"`
		ToolName      string                   `json:"tool_name"`
		ToolInput     struct{ Command string } `json:"tool_input"`
		Cwd           string                   `json:"cwd"`
		SessionID     string                   `json:"session_id"`
	}
	b, _ := os.ReadFile(filepath.Join(home, "pre.json"))
	if err := json.Unmarshal(b, &in); err != nil || in.HookEventName != "PreToolUse" || in.ToolName != "Bash" || in.ToolInput.Command != "touch ran.txt" || in.Cwd == "" || in.SessionID == "" {
		t.Errorf("the hook read %s (%v)", b, err)
	}
}

func TestHookPostToolUseGetsWrite(t *testing.T) {
	t.Parallel()
	tools := t.TempDir()
	post := script(t, tools, "post.sh", `cat > "$HOME/post.json"`+"\n")
	home := hookHome(t, hooked("PostToolUse", "Write|Edit", post, 0))
	dir := t.TempDir()
	srv := toolThenDone("write", fakellm.ToolCall{Name: "write_file", Input: []byte(`{"path":"src/a.txt","content":"hello hooks\n"}`)})
	defer srv.Close()
	if stdout, stderr, err := runPrompt(t, srv, home, dir, "write it", "--approve", "all"); err != nil || stdout != "Done.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	var in struct {
		HookEventName string `json:"hook_event_name"`
		ToolName      string `json:"tool_name"`
		ToolInput     struct {
			FilePath string `json:"file_path"`
			Content  string `json:"content"`
		} `json:"tool_input"`
		ToolResponse map[string]any `json:"tool_response"`
	}
	b, _ := os.ReadFile(filepath.Join(home, "post.json"))
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("the hook read %q: %v", b, err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	got, _ := filepath.EvalSymlinks(filepath.Dir(filepath.Dir(in.ToolInput.FilePath)))
	if in.HookEventName != "PostToolUse" || in.ToolName != "Write" || !filepath.IsAbs(in.ToolInput.FilePath) || got != want ||
		filepath.Base(in.ToolInput.FilePath) != "a.txt" || in.ToolInput.Content != "hello hooks\n" || in.ToolResponse["success"] != true {
		t.Errorf("the hook read %s", b)
	}
}

func TestHookUserPromptSubmitContextReachesModel(t *testing.T) {
	t.Parallel()
	home := hookHome(t, hooked("UserPromptSubmit", "", `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"The release codename is PUFFIN."}}'`, 0))
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Saw the codename.", Repeat: true, When: &fakellm.When{LastUserContains: "PUFFIN"}},
		{Text: "No codename.", Repeat: true},
	}})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, t.TempDir(), "what is the codename?")
	if err != nil || stdout != "Saw the codename.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
}

func TestHookUserPromptSubmitBlocks(t *testing.T) {
	t.Parallel()
	home := hookHome(t, hooked("UserPromptSubmit", "", `echo "Prompts may not name the secret project." >&2; exit 2`, 0))
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Answered.", Repeat: true}}})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, t.TempDir(), "tell me about the secret project")
	if err == nil || stdout != "" || !strings.Contains(stderr, "Prompts may not name the secret project.") || len(srv.Requests()) != 0 {
		t.Fatalf("%v\nstdout %q\nstderr %s\nrequests %d", err, stdout, stderr, len(srv.Requests()))
	}
}

func TestHookStopBlockContinuesOnce(t *testing.T) {
	t.Parallel()
	tools := t.TempDir()
	stop := script(t, tools, "stop.sh", `cat >> "$HOME/stop.jsonl"; echo; echo '{"decision":"block","reason":"Run the tests before you stop."}'`+"\n")
	home := hookHome(t, hooked("Stop", "", stop, 0))
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Tests pass.", Repeat: true, When: &fakellm.When{LastUserContains: "Run the tests"}},
		{Text: "Working.", Repeat: true},
	}})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, t.TempDir(), "do the work")
	if err != nil || stdout != "Working.\nTests pass.\n" && stdout != "Working.Tests pass.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model calls, want 2 (the model goes on once)", n)
	}
	b, _ := os.ReadFile(filepath.Join(home, "stop.jsonl"))
	if !strings.Contains(string(b), `"stop_hook_active":false`) || !strings.Contains(string(b), `"stop_hook_active":true`) {
		t.Errorf("the Stop hook read %s", b)
	}
	if !strings.Contains(stderr, "already went on once") {
		t.Errorf("stderr does not say the second block was not obeyed: %s", stderr)
	}
}

func TestHookUntrustedProjectHookDoesNotRun(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := t.TempDir()
	marker := filepath.Join(dir, "hook-ran")
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(hooked("PreToolUse", "", "touch "+marker, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := toolThenDone("read", fakellm.ToolCall{Name: "list_files", Input: []byte(`{}`)})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, dir, "read the folder")
	if err != nil || stdout != "Done.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("an untrusted project hook ran")
	}
	if !strings.Contains(stderr, "not trusted") || !strings.Contains(stderr, "pilot trust") || !strings.Contains(stderr, filepath.Join(".claude", "settings.json")) {
		t.Errorf("stderr does not say how to trust the hooks: %s", stderr)
	}
	// Trusted as it is now, the hook runs; changed, it stops until trusted anew.
	if r := pilotSub(t, home, dir, "trust", "--project", dir, "--yes"); r.code != 0 || !strings.Contains(r.stdout, "touch "+marker) {
		t.Fatalf("pilot trust --yes: exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
	if _, stderr, err := runPrompt(t, srv, home, dir, "read the folder"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the trusted project hook did not run: %v", err)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(hooked("PreToolUse", "", "touch "+marker+" ", 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runPrompt(t, srv, home, dir, "read the folder"); err != nil || !strings.Contains(stderr, "pilot trust") {
		t.Fatalf("after the change: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a project hook changed since it was trusted ran")
	}
}

func TestHookTimeoutAndHugeOutput(t *testing.T) {
	t.Parallel()
	tools := t.TempDir()
	hang := script(t, tools, "hang.sh", "sleep 600\n")
	huge := script(t, tools, "huge.sh", `head -c 10485760 /dev/zero | tr '\0' x >&2; exit 2`+"\n")
	for _, c := range []struct {
		name, hook, stderr, result string
		written                    bool
	}{
		{"hang", hang, "did not finish within 1s", "", true},
		{"10 MB", huge, "", "[cut: the hook printed 10485760 bytes", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := hookHome(t, hooked("PreToolUse", "Write", c.hook, 1))
			dir := t.TempDir()
			srv := toolThenDone("write", fakellm.ToolCall{Name: "write_file", Input: []byte(`{"path":"a.txt","content":"x"}`)})
			defer srv.Close()
			stdout, stderr, err := runPrompt(t, srv, home, dir, "write it", "--approve", "all")
			if err != nil || stdout != "Done.\n" {
				t.Fatalf("%v\nstdout %q\nstderr %.2000s", err, stdout, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "a.txt")); (err == nil) != c.written {
				t.Errorf("written: %v, want %v", err == nil, c.written)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %.2000s", stderr)
			}
			if res := lastResult(t, srv); !strings.Contains(res.Content, c.result) || len(res.Content) > 20<<10 {
				t.Errorf("tool result (%d bytes) %.300s", len(res.Content), res.Content)
			}
			// The session is intact: it lists and resumes.
			if out, err := command(t, srv, home, "sessions", "list", "--project", dir).CombinedOutput(); err != nil || !strings.Contains(string(out), "write it") {
				t.Errorf("sessions list: %v %s", err, out)
			}
		})
	}
}

func TestHookThirdPartyGuardRunsUnchanged(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	guard, err := filepath.Abs("testdata/hooks/block-dangerous-commands.js")
	if err != nil {
		t.Fatal(err)
	}
	home := hookHome(t, hooked("PreToolUse", "Bash", node+" "+guard, 0))
	dir := t.TempDir()
	srv := toolThenDone("wipe", fakellm.ToolCall{Name: "run_bash", Input: []byte(`{"command":"rm -rf ~/"}`)})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, dir, "wipe my home", "--approve", "all", "--json")
	if err != nil {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	// --json: the tool_result line carries the hook's run.
	var seen bool
	for _, line := range strings.Split(stdout, "\n") {
		var l struct {
			Type  string
			Hooks []struct{ Event, Hook, Decision string }
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.Type == "tool_result" {
			seen = len(l.Hooks) == 1 && l.Hooks[0].Event == "PreToolUse" && l.Hooks[0].Decision == "deny" && strings.HasSuffix(l.Hooks[0].Hook, "block-dangerous-commands.js")
		}
	}
	if !seen {
		t.Errorf("no tool_result line with the hook's run:\n%s", stdout)
	}
	if res := lastResult(t, srv); !res.IsError || !strings.Contains(res.Content, "[rm-home] rm targeting home directory") {
		t.Errorf("tool result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); err != nil {
		t.Errorf("the home was touched: %v", err)
	}
}

func TestHookSessionStartAndEnd(t *testing.T) {
	t.Parallel()
	tools := t.TempDir()
	start := script(t, tools, "start.sh", `cat > "$HOME/start.json"; echo "House rule: indent with tabs."`+"\n")
	end := script(t, tools, "end.sh", `cat > "$HOME/end.json"`+"\n")
	settings := `{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"` + start + `"}]}],` +
		`"SessionEnd":[{"hooks":[{"type":"command","command":"` + end + `"}]}]}}`
	home := hookHome(t, settings)
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Tabs it is.", Repeat: true, When: &fakellm.When{LastUserContains: "indent with tabs"}},
		{Text: "No rule seen.", Repeat: true},
	}})
	defer srv.Close()
	stdout, stderr, err := runPrompt(t, srv, home, t.TempDir(), "format the code")
	if err != nil || stdout != "Tabs it is.\n" {
		t.Fatalf("%v\nstdout %q\nstderr %s", err, stdout, stderr)
	}
	for name, want := range map[string]string{"start.json": `"source":"startup"`, "end.json": `"hook_event_name":"SessionEnd"`} {
		if b, _ := os.ReadFile(filepath.Join(home, name)); !strings.Contains(string(b), want) {
			t.Errorf("%s = %s, want %s in it", name, b, want)
		}
	}
}
