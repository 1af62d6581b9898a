package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// The permission rules of Claude Code's settings files, on the real
// binary: the project's .claude/settings.json denies touch and reading
// secrets/ and allows `mkdir made`; the user's ~/.claude/settings.json
// denies rm. Deny rules hold at once, in mode all too; the project's allow
// rule grants nothing until `pilot trust`, and then lets mkdir run without
// asking. `pilot rules list` shows every rule with its file.
func TestSettingsRulesHeadless(t *testing.T) {
	t.Parallel()
	pilotBinary(t)
	home, base := t.TempDir(), t.TempDir()
	dir := filepath.Join(base, "project")
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(mkdir made:*)", "WebSearch", "NotebookEdit"], "deny": ["Bash(touch:*)", "Read(./secrets/**)"]}}`)
	write(filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"deny": ["Bash(rm:*)"]}}`)
	write(filepath.Join(dir, "secrets", "key.txt"), "SECRET-KEY-CONTENT\n")
	write(filepath.Join(dir, "a.txt"), "keep me\n")

	calls := []fakellm.ToolCall{
		{ID: "mkdir", Name: "run_bash", Input: []byte(`{"command":"mkdir made"}`)},
		{ID: "touch", Name: "run_bash", Input: []byte(`{"command":"touch M"}`)},
		{ID: "read", Name: "read_file", Input: []byte(`{"path":"secrets/key.txt"}`)},
		{ID: "rm", Name: "run_bash", Input: []byte(`{"command":"rm a.txt"}`)},
	}
	var lastStderr string
	run := func(mode string) map[string]fakellm.ToolResult {
		t.Helper()
		srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
			{ToolCalls: calls, When: &fakellm.When{LastUserContains: "Go"}},
			{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		}})
		defer srv.Close()
		cmd := command(t, srv, home, "-p", "Go on", "--project", dir, "--approve", mode)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pilot -p --approve %s: %v\n%s", mode, err, stderr.String())
		}
		out := map[string]fakellm.ToolResult{}
		for _, r := range srv.Requests() {
			for _, tr := range r.ToolResults {
				out[tr.ToolUseID] = tr
			}
		}
		if len(out) != len(calls) {
			t.Fatalf("%d results for %d calls\n%s", len(out), len(calls), stderr.String())
		}
		lastStderr = stderr.String()
		return out
	}
	exists := func(rel string) bool { _, err := os.Stat(filepath.Join(dir, rel)); return err == nil }
	denied := func(mode string, res map[string]fakellm.ToolResult) {
		t.Helper()
		if exists("M") || !strings.Contains(res["touch"].Content, `deny run_bash "touch *"`) {
			t.Errorf("%s: touch ran (%v) or the result does not name the deny rule: %s", mode, exists("M"), res["touch"].Content)
		}
		if strings.Contains(res["read"].Content, "SECRET-KEY") || !strings.Contains(res["read"].Content, "secrets/**") {
			t.Errorf("%s: secrets/key.txt was read, or the refusal does not name the rule: %s", mode, res["read"].Content)
		}
		if !exists("a.txt") || !strings.Contains(res["rm"].Content, `deny run_bash "rm *"`) {
			t.Errorf("%s: rm ran despite the user's deny rule: %s", mode, res["rm"].Content)
		}
	}

	// Untrusted: deny rules hold even in mode all; the allow rule grants nothing.
	res := run("all")
	denied("all", res)
	if err := os.Remove(filepath.Join(dir, "made")); err != nil {
		t.Fatalf("mode all did not run mkdir made: %v (%s)", err, res["mkdir"].Content)
	}
	res = run("ask")
	denied("ask", res)
	if exists("made") {
		t.Fatalf("the untrusted project's allow rule let mkdir run without asking: %s", res["mkdir"].Content)
	}
	if !strings.Contains(lastStderr, "the allow rules of "+filepath.Join(dir, ".claude", "settings.json")+" are not applied") || !strings.Contains(lastStderr, "pilot trust --project") {
		t.Errorf("stderr does not say the project's allow rules wait for trust:\n%s", lastStderr)
	}

	list := pilotSub(t, home, dir, "rules", "list", "--project", dir)
	for _, want := range []string{filepath.Join(dir, ".claude", "settings.json"), "Bash(mkdir made:*)", "NOT APPLIED: untrusted", `"touch *"`, filepath.Join(home, ".claude", "settings.json"), "NotebookEdit", "Pilot has no notebook tool"} {
		if !strings.Contains(list.stdout, want) {
			t.Errorf("pilot rules list does not show %q:\n%s", want, list.stdout)
		}
	}
	if !regexp.MustCompile(`allow\s+web_search\s+"\*"\s+WebSearch\s`).MatchString(list.stdout) {
		t.Errorf("pilot rules list does not map WebSearch to web_search:\n%s", list.stdout)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(pilotSub(t, home, dir, "rules", "list", "--project", dir, "--json").stdout), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("rules list --json: %v: %s", err, l)
		}
		lines = append(lines, m)
	}
	if len(lines) == 0 || lines[0]["file"] == nil {
		t.Errorf("rules list --json: %v", lines)
	}

	// pilot trust: refused without a terminal or --yes, then trusted.
	r := pilotSub(t, home, dir, "trust", "--project", dir)
	if r.code != exitFailure || !strings.Contains(r.stdout, "Bash(mkdir made:*) → allow run_bash \"mkdir made\"") || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("pilot trust without --yes: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := pilotSub(t, home, dir, "trust", "--project", dir, "--yes"); r.code != 0 || !strings.Contains(r.stdout, "Trusted.") {
		t.Fatalf("pilot trust --yes: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := pilotSub(t, home, dir, "trust", "--project", dir); r.code != 0 || !strings.Contains(r.stdout, "Nothing") {
		t.Errorf("pilot trust after trusting: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	res = run("ask")
	denied("trusted, ask", res)
	if strings.Contains(lastStderr, "are not applied") {
		t.Errorf("stderr still says the rules wait for trust after pilot trust:\n%s", lastStderr)
	}
	if !exists("made") {
		t.Errorf("the trusted project's allow rule did not let mkdir run: %s", res["mkdir"].Content)
	}

	// A change to the file takes the trust away again.
	if err := os.Remove(filepath.Join(dir, "made")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(mkdir made:*)", "Bash(curl:*)"], "deny": ["Bash(touch:*)", "Read(./secrets/**)"]}}`)
	res = run("ask")
	if exists("made") {
		t.Errorf("a changed project file kept its trust: %s", res["mkdir"].Content)
	}
}

// pilotSub runs a subcommand of the real binary in a clean environment.
func pilotSub(t *testing.T, home, cwd string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(pilotBinary(t), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + home}
	cmd.Dir = cwd
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return ran{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// An ask rule of a settings file asks every time, under --approve all too,
// reads included; with no terminal to answer, the model is told which rule
// asked and that --approve does not change it.
func TestSettingsAskRuleHeadless(t *testing.T) {
	t.Parallel()
	pilotBinary(t)
	home, base := t.TempDir(), t.TempDir()
	dir := filepath.Join(base, "project")
	for path, body := range map[string]string{
		filepath.Join(dir, ".claude", "settings.json"): `{"permissions": {"ask": ["Read(./notes/**)", "Bash(mkdir asked:*)"]}}`,
		filepath.Join(dir, "notes", "a.txt"):           "NOTE-CONTENT\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "read", Name: "read_file", Input: []byte(`{"path":"notes/a.txt"}`)},
			{ID: "mkdir", Name: "run_bash", Input: []byte(`{"command":"mkdir asked"}`)},
			{ID: "other", Name: "run_bash", Input: []byte(`{"command":"mkdir other"}`)},
		}, When: &fakellm.When{LastUserContains: "Go"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	cmd := command(t, srv, home, "-p", "Go on", "--project", dir, "--approve", "all")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	res := map[string]fakellm.ToolResult{}
	for _, r := range srv.Requests() {
		for _, tr := range r.ToolResults {
			res[tr.ToolUseID] = tr
		}
	}
	for _, id := range []string{"read", "mkdir"} {
		if !strings.Contains(res[id].Content, "asks about it every time") || !strings.Contains(res[id].Content, "ask ") {
			t.Errorf("%s: the result does not say an ask rule asked: %s", id, res[id].Content)
		}
	}
	if strings.Contains(res["read"].Content, "NOTE-CONTENT") {
		t.Errorf("the read an ask rule names ran unasked: %s", res["read"].Content)
	}
	if _, err := os.Stat(filepath.Join(dir, "asked")); err == nil {
		t.Error("mkdir asked ran although an ask rule names it")
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); err != nil {
		t.Errorf("mode all did not run a command no rule names: %s", res["other"].Content)
	}
}
