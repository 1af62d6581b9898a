package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// set builds a Set of one user file with the command as the only hook of
// event (matcher m).
func set(t *testing.T, e Event, m, command string, timeout float64) (*Set, string) {
	t.Helper()
	dir := t.TempDir()
	f := settingsjson.File{Path: filepath.Join(dir, "settings.json"), Scope: settingsjson.ScopeUser,
		Hooks: settingsjson.Hooks{string(e): {{Matcher: m, Hooks: []settingsjson.Hook{{Type: "command", Command: command, Timeout: timeout}}}}}}
	return New([]settingsjson.File{f}, Options{Project: dir, Env: []string{"PATH=" + os.Getenv("PATH"), "ANTHROPIC_API_KEY=sk-ant-secret-value-123456789"}}), dir
}

func TestRunSemantics(t *testing.T) {
	t.Parallel()
	bash := Input{HookEventName: PreToolUse, ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"rm -rf /"}`)}
	cases := []struct {
		name, command string
		in            Input
		block         bool
		perm          wire.HookDecision
		run           wire.HookDecision
		reason        string
		context       string
	}{
		{"exit 0 plain", "echo fine", bash, false, wire.HookNone, wire.HookNone, "", ""},
		{"exit 2 blocks with stderr", "echo 'no rm' >&2; exit 2", bash, true, wire.HookDeny, wire.HookDeny, "no rm", ""},
		{"exit 1 is a non-blocking error", "echo oops >&2; exit 1", bash, false, wire.HookNone, wire.HookError, "", ""},
		{"json deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not here"}}'`, bash, true, wire.HookDeny, wire.HookDeny, "not here", ""},
		{"json allow", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, bash, false, wire.HookAllow, wire.HookAllow, "", ""},
		{"json ask", `echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`, bash, false, wire.HookAsk, wire.HookAsk, "", ""},
		{"legacy block", `echo '{"decision":"block","reason":"old style"}'`, bash, true, wire.HookDeny, wire.HookDeny, "old style", ""},
		{"reads stdin", `grep -q '"tool_name":"Bash","tool_input":{"command":"rm -rf /"}' && { echo seen >&2; exit 2; }`, bash, true, wire.HookDeny, wire.HookDeny, "seen", ""},
		{"prompt context plain", "echo remember the tests", Input{HookEventName: UserPromptSubmit, Prompt: "hi"}, false, wire.HookNone, wire.HookNone, "", "remember the tests"},
		{"prompt context json", `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx here"}}'`, Input{HookEventName: UserPromptSubmit}, false, wire.HookNone, wire.HookNone, "", "ctx here"},
		{"stop block", `echo '{"decision":"block","reason":"run the tests first"}'`, Input{HookEventName: Stop}, true, wire.HookNone, wire.HookDeny, "run the tests first", ""},
		{"env", `test "$CLAUDE_PROJECT_DIR" = "$PILOT_PROJECT_DIR" && test -n "$CLAUDE_PROJECT_DIR" && test -z "$ANTHROPIC_API_KEY" || exit 2`, bash, false, wire.HookNone, wire.HookNone, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s, _ := set(t, c.in.HookEventName, "", c.command, 0)
			r := s.Run(context.Background(), c.in)
			if len(r.Runs) != 1 {
				t.Fatalf("runs = %d", len(r.Runs))
			}
			if r.Block != c.block || r.Permission != c.perm || r.Runs[0].Decision != c.run {
				t.Errorf("block %v perm %q run %q (%+v), want %v %q %q", r.Block, r.Permission, r.Runs[0].Decision, r.Runs[0], c.block, c.perm, c.run)
			}
			if !strings.Contains(r.Reason, c.reason) {
				t.Errorf("reason %q, want %q", r.Reason, c.reason)
			}
			if c.context != "" && strings.Join(r.Context, "\n") != c.context {
				t.Errorf("context %q, want %q", r.Context, c.context)
			}
		})
	}
}

func TestMatchers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		matcher, tool string
		want          bool
	}{
		{"", "Bash", true}, {"*", "Write", true}, {"Bash", "Bash", true}, {"Bash", "BashOutput", false},
		{"Edit|Write", "Write", true}, {"Edit|Write", "Read", false}, {"Notebook.*", "NotebookEdit", true},
		{"mcp__memory__.*", "mcp__memory__create", true}, {"mcp__memory", "mcp__memory__create", false}, {"bash", "Bash", false},
	}
	for _, c := range cases {
		s, _ := set(t, PreToolUse, c.matcher, "true", 0)
		r := s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: c.tool})
		if got := len(r.Runs) == 1; got != c.want {
			t.Errorf("matcher %q on %s: ran %v, want %v", c.matcher, c.tool, got, c.want)
		}
	}
}

func TestTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	s, dir := set(t, PreToolUse, "", `sleep 300 & echo $! > child; sleep 300`, 0.3)
	start := time.Now()
	r := s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"})
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("took %v", el)
	}
	if r.Block || len(r.Runs) != 1 || !r.Runs[0].TimedOut || r.Runs[0].Decision != wire.HookError || !strings.Contains(r.Messages[0], "did not finish within 300ms") {
		t.Fatalf("%+v", r)
	}
	// The hook's background child died with its group.
	b, err := os.ReadFile(filepath.Join(dir, "child"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(30 * time.Second); ; {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(st), ") Z ") {
			break // gone, or dead and waiting to be reaped
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook's child %d still runs", pid)
		}
		runtime.Gosched()
	}
}

func TestOutputCut(t *testing.T) {
	t.Parallel()
	s, _ := set(t, PreToolUse, "", `head -c 10485760 /dev/zero | tr '\0' x; echo; head -c 10485760 /dev/zero | tr '\0' y >&2; exit 2`, 0)
	r := s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"})
	run := r.Runs[0]
	if !r.Block || len(run.Stdout) > MaxShown+200 || !strings.Contains(run.Stdout, "[cut: the hook printed 10485761 bytes") {
		t.Fatalf("stdout %d bytes, tail %q", len(run.Stdout), run.Stdout[max(0, len(run.Stdout)-100):])
	}
	if len(r.Reason) > MaxShown+200 || !strings.Contains(r.Reason, "[cut:") {
		t.Errorf("reason %d bytes", len(r.Reason))
	}
}

func TestUntrustedProjectHooksDoNotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	f := settingsjson.File{Path: filepath.Join(dir, ".claude", "settings.json"), Scope: settingsjson.ScopeProject,
		Hooks: settingsjson.Hooks{"PreToolUse": {{Hooks: []settingsjson.Hook{{Type: "command", Command: "touch " + marker}}}}}}
	for _, trusted := range []func(settingsjson.File) bool{nil, func(settingsjson.File) bool { return false }} {
		s := New([]settingsjson.File{f}, Options{Project: dir, Trusted: trusted})
		s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"})
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("an untrusted project hook ran")
		}
		if u := s.Untrusted(); len(u) != 1 || !strings.Contains(u[0], "pilot trust") || !strings.Contains(u[0], f.Path) {
			t.Errorf("untrusted = %q", u)
		}
	}
	s := New([]settingsjson.File{f}, Options{Project: dir, Trusted: func(settingsjson.File) bool { return true }})
	s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"})
	if _, err := os.Stat(marker); err != nil {
		t.Error("a trusted project hook did not run")
	}
}

// A trusted project hook's script rewritten after the hooks were read
// (by anyone, during the turn) is not run: the run is an error that names
// the script and says to trust again; the untrusted sentence is the one
// Options.Untrusted gives.
func TestChangedScriptDoesNotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pilotHome := t.TempDir()
	hooksDir := filepath.Join(dir, ".claude", "hooks")
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(hooksDir, "check.sh")
	if err := os.WriteFile(check, []byte("#!/bin/sh\ntouch \"$CLAUDE_PROJECT_DIR/good\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`}}}}}})
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	files := settingsjson.Load("", pilotHome, dir)
	for _, f := range files {
		if err := settingsjson.Trust(pilotHome, f); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{Project: dir, Env: []string{"PATH=" + os.Getenv("PATH")},
		Trusted:   func(f settingsjson.File) bool { return settingsjson.Trusted(pilotHome, f) },
		Untrusted: func(f settingsjson.File) string { return settingsjson.Untrusted(pilotHome, f, "hooks run") }}
	s := New(settingsjson.Load("", pilotHome, dir), opt)
	if r := s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"}); len(r.Runs) != 1 || r.Runs[0].Decision != wire.HookNone {
		t.Fatalf("the trusted hook: %+v", r.Runs)
	}
	if _, err := os.Stat(filepath.Join(dir, "good")); err != nil {
		t.Fatal("the trusted script did not run")
	}
	if err := os.WriteFile(check, []byte("#!/bin/sh\ntouch \"$CLAUDE_PROJECT_DIR/evil\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := s.Run(context.Background(), Input{HookEventName: PreToolUse, ToolName: "Bash"})
	if _, err := os.Stat(filepath.Join(dir, "evil")); err == nil {
		t.Error("the rewritten script ran")
	}
	if len(r.Runs) != 1 || r.Runs[0].Decision != wire.HookError || !strings.Contains(r.Runs[0].Message, ".claude/hooks/check.sh, which the hooks of") {
		t.Errorf("runs %+v", r.Runs)
	}
	next := New(settingsjson.Load("", pilotHome, dir), opt)
	if next.Has(PreToolUse) {
		t.Error("the next turn's hooks still run the changed script")
	}
	if u := next.Untrusted(); len(u) != 1 || !strings.Contains(u[0], "changed since you trusted it") {
		t.Errorf("untrusted %q", u)
	}
}

func TestCalls(t *testing.T) {
	t.Parallel()
	cases := []struct{ tool, in, name, want string }{
		{"run_bash", `{"command":"ls","timeout_seconds":5,"reason":"why"}`, "Bash", `{"command":"ls","description":"why","timeout":5000}`},
		{"write_file", `{"path":"a/b.txt","content":"x"}`, "Write", `{"content":"x","file_path":"/root/a/b.txt"}`},
		{"patch_file", `{"path":"f","old_text":"a","new_text":"b"}`, "Edit", `{"file_path":"/root/f","new_string":"b","old_string":"a","replace_all":false}`},
		{"read_file", `{"path":"f","start_line":10,"end_line":19}`, "Read", `{"file_path":"/root/f","limit":10,"offset":10}`},
		{"mcp__s__t", `{"q":1}`, "mcp__s__t", `{"q":1}`},
	}
	for _, c := range cases {
		got := Calls(c.tool, json.RawMessage(c.in), "/root")
		if len(got) != 1 || got[0].Name != c.name || string(got[0].Input) != c.want {
			t.Errorf("%s: %s %s, want %s %s", c.tool, got[0].Name, got[0].Input, c.name, c.want)
		}
	}
	multi := Calls("multi_patch", json.RawMessage(`{"edits":[{"path":"a","old_text":"1","new_text":"2"},{"path":"b","old_text":"3","new_text":"4"},{"path":"a","old_text":"5","new_text":"6"}]}`), "/root")
	if len(multi) != 2 || multi[0].Name != "MultiEdit" || string(multi[0].Input) != `{"edits":[{"old_string":"1","new_string":"2"},{"old_string":"5","new_string":"6"}],"file_path":"/root/a"}` {
		t.Errorf("multi_patch: %+v", multi)
	}
}
