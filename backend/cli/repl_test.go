package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

func TestReplSlashCommands(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Hello there.", Repeat: true, When: &fakellm.When{LastUserContains: "hi"}},
	}})
	defer srv.Close()
	dir := tempProject(t, nil)
	env := fakeEnv(t, srv, "openai")
	in := strings.Join([]string{"/help", "/bogus", "hi", "/model", "/model other-model", "/model",
		"/clear", "/sessions", "/resume 1", "/resume 999", "/resume x", "/compact", "/exit", "hi"}, "\n") + "\n"
	r := runCLI(t, env, in, "repl", "--project", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"Commands:\n  /help ", "/resume ID", // /help
		"unknown command: /bogus", "no skill has that name either", // unknown: refused with the list
		"Sent to the model as a prompt:\n  /init [TEXT]", "/remember TEXT",
		"Session 1 uses gpt-4.1 (openai).", "Session 1 now uses other-model.", "Session 1 uses other-model (openai).",
		"New session 2.",
		"ID  ", // /sessions' table
		"Resumed session 1: ", "(other-model)",
		"there is no session 999", "/resume needs a session id",
		"too short to compact",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// The slash lines never reach the model; /exit ends before the last "hi".
	if got := strings.Count(r.stdout, "Hello there."); got != 1 {
		t.Errorf("answers %d, want 1: %q", got, r.stdout)
	}
	if n := len(srv.ModelRequests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestReplPromptCommands: a slash line that is not one of the REPL's own
// commands is a prompt command: /remember and the project's own command
// reach the model expanded; /remember without text does not.
func TestReplPromptCommands(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Noted.", Repeat: true}}})
	defer srv.Close()
	dir := tempProject(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, ".claude", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "commands", "ship.md"), []byte("Ship it: $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), "/remember\n/remember Use tabs.\n/ship now\n/exit\n", "repl", "--project", dir)
	if r.code != 0 || !strings.Contains(r.stderr, "say what to remember after it") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[0].LastUserText, "Remember this for future sessions in this project:\n\nUse tabs.") || reqs[1].LastUserText != "Ship it: now\n" {
		t.Errorf("%d requests: %+v", len(reqs), reqs)
	}
}

// A run whose first message is refused (no API key, a message too big)
// leaves no empty session behind.
func TestRefusedFirstMessageLeavesNoSession(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	dir := tempProject(t, nil)
	env := fakeEnv(t, srv, "anthropic")
	delete(env, "ANTHROPIC_API_KEY")
	r := runCLI(t, env, "", "-p", "hello", "--project", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "needs an API key") {
		t.Fatalf("no key: exit %d %q", r.code, r.stderr)
	}
	env["ANTHROPIC_API_KEY"] = "sk-test"
	r = runCLI(t, env, "", "-p", strings.Repeat("x", 1_000_000), "--project", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "This message is about 250k tokens") || strings.Contains(r.stderr, "agent:") {
		t.Fatalf("too big: exit %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, env, "/exit\n", "repl", "--project", dir); r.code != 0 {
		t.Fatalf("repl: %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "list", "--project", dir); !strings.Contains(r.stdout, "No sessions yet") {
		t.Errorf("sessions left behind:\n%s", r.stdout)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

// A base URL set by an environment variable is named in the error, not
// Settings.
func TestHeadlessErrorNamesTheBaseURLVariable(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	url := srv.OpenAIBaseURL()
	srv.Close() // connection refused
	env := fakeEnv(t, srv, "openai")
	env["OPENAI_BASE_URL"] = url
	r := runCLI(t, env, "", "-p", "hello", "--project", tempProject(t, nil))
	if r.code != 1 || !strings.Contains(r.stderr, "the base URL in the OPENAI_BASE_URL environment variable") || strings.Contains(r.stderr, "in Settings") {
		t.Errorf("exit %d %q", r.code, r.stderr)
	}
}

// In the REPL, /mode switches the session into plan mode and out of it:
// the plan turn ends with what to do next, and after /mode edits the
// approved work runs.
func TestReplPlanMode(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "w1", Name: "write_file", Input: []byte(`{"path":"a.txt","content":"x"}`)},
			{ID: "p1", Name: "present_plan", Input: []byte(`{"plan":"Write a.txt","steps":["Write it"]}`)},
		}, When: &fakellm.When{LastUserContains: "plan"}},
		{ToolCalls: []fakellm.ToolCall{{ID: "w2", Name: "write_file", Input: []byte(`{"path":"a.txt","content":"x"}`)}}, When: &fakellm.When{LastUserContains: "go ahead"}},
		{Text: "Written.", When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	dir := tempProject(t, nil)
	in := strings.Join([]string{"/mode", "/mode plan", "make a plan", "/mode sometimes", "/mode edits", "go ahead", "/exit"}, "\n") + "\n"
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), in, "repl", "--project", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"Session 1 is in ask mode.", "Session 1 is now in plan mode.",
		"The plan is ready: answer with feedback",
		`unknown approval mode "sometimes"`, "Session 1 is now in edits mode.",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "Write a.txt\n\nSteps:\n1. Write it\n") || !strings.Contains(r.stdout, "Written.") {
		t.Errorf("stdout %q", r.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "x" {
		t.Errorf("a.txt %q %v: want it written only after /mode edits", b, err)
	}
	results := srv.Requests()[1].ToolResults
	if len(results) != 2 || !strings.Contains(results[0].Content, "plan mode") {
		t.Errorf("plan-mode results %+v", results)
	}
}
