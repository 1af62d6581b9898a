package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// fakeEnv is the environment of a headless run against srv.
func fakeEnv(t *testing.T, srv *fakellm.Server, format string) map[string]string {
	env := map[string]string{"PILOT_HOME": t.TempDir(), "PILOT_PROVIDER": format}
	if format == "openai" {
		env["OPENAI_BASE_URL"], env["OPENAI_API_KEY"], env["PILOT_MODEL"] = srv.OpenAIBaseURL(), "sk-test", "gpt-4.1"
	} else {
		env["ANTHROPIC_BASE_URL"], env["ANTHROPIC_API_KEY"] = srv.URL(), "sk-test"
	}
	return env
}

type run struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, IO{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
	})
	return run{code, out.String(), errb.String()}
}

func tempProject(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func editScript() fakellm.Script {
	return fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Reading first.", ToolCalls: []fakellm.ToolCall{{ID: "r", Name: "read_file", Input: []byte(`{"path":"notes.txt"}`)}}},
		{ToolCalls: []fakellm.ToolCall{{ID: "p", Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)}}},
		{Text: "Marked it final."},
	}}
}

func TestPromptApproveModes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		approve  string
		want     string
		feedback string
	}{
		{"all", "status: final\n", ""},
		{"edits", "status: final\n", ""},
		{"none", "status: draft\n", "approval mode none"},
		{"ask", "status: draft\n", "nobody is at a terminal"}, // no terminal: denied
	}
	for _, format := range []string{"anthropic", "openai"} {
		for _, c := range cases {
			t.Run(format+"/"+c.approve, func(t *testing.T) {
				t.Parallel()
				srv := fakellm.New(editScript())
				defer srv.Close()
				dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
				env := fakeEnv(t, srv, format)
				r := runCLI(t, env, "", "-p", "Mark the notes final", "--project", dir, "--approve", c.approve)
				if r.code != 0 {
					t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
				}
				b, _ := os.ReadFile(filepath.Join(dir, "notes.txt"))
				if string(b) != c.want {
					t.Errorf("notes.txt = %q", b)
				}
				if r.stdout != "Reading first.\nMarked it final.\n" {
					t.Errorf("stdout %q", r.stdout)
				}
				if !strings.Contains(r.stderr, "→ Reading file: notes.txt") || !strings.Contains(r.stderr, "→ Patching file: notes.txt") {
					t.Errorf("stderr %q", r.stderr)
				}
				if c.feedback != "" {
					res := srv.ModelRequests()[2].ToolResults
					if len(res) != 1 || !strings.Contains(res[0].Content, c.feedback) {
						t.Errorf("result %+v", res)
					}
				}
				// The session is saved where the window and `pilot sessions` find it.
				list := runCLI(t, env, "", "sessions", "list", "--project", dir, "--json")
				if list.code != 0 || !strings.Contains(list.stdout, "Mark the notes final") {
					t.Errorf("sessions list: %d %s %s", list.code, list.stdout, list.stderr)
				}
			})
		}
	}
}

func TestPromptJSONLines(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(editScript())
	defer srv.Close()
	dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), "", "-p", "Mark it", "--project", dir, "--approve", "ask", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		ty := v["type"].(string)
		if len(types) == 0 || types[len(types)-1] != ty {
			types = append(types, ty)
		}
		if ty == "approval" && (v["decision"] != "rejected" || v["tool"] != "patch_file") {
			t.Errorf("approval line %v", v)
		}
		if ty == "done" && (v["reason"] != "end_turn" || v["sessionId"] == nil) {
			t.Errorf("done line %v", v)
		}
	}
	want := []string{"text", "usage", "tool_call", "tool_result", "usage", "tool_call", "approval", "tool_result", "text", "usage", "done"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("line types\n%v\nwant\n%v", types, want)
	}
}

func TestPromptFailuresAndResume(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Fault: &fakellm.Fault{Status: 401}},
		{Text: "First answer.", When: &fakellm.When{LastUserContains: "one"}},
		{Text: "Second answer.", When: &fakellm.When{LastUserContains: "two"}},
	}})
	defer srv.Close()
	dir := tempProject(t, nil)
	env := fakeEnv(t, srv, "anthropic")
	r := runCLI(t, env, "", "-p", "zero", "--project", dir)
	if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "pilot: ") || !strings.Contains(r.stderr, "key") {
		t.Errorf("401: exit %d stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "-p", "one", "--project", dir)
	if r.code != 0 || r.stdout != "First answer.\n" {
		t.Fatalf("one: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "--prompt=two", "--resume", "2")
	if r.code != 0 || r.stdout != "Second answer.\n" {
		t.Fatalf("two: %d %q %q", r.code, r.stdout, r.stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !strings.Contains(jsonOf(last.Body), `"text":"First answer."`) {
		t.Errorf("the resumed turn did not send the history: %.300s", jsonOf(last.Body))
	}
	for _, bad := range [][]string{{"-p"}, {"-p", "x", "--approve", "maybe"}, {"-p", "x", "--resume", "abc"}, {"-p", "x", "--bogus", "1"}, {"repl", "stray"}} {
		if r := runCLI(t, env, "", bad...); r.code != 2 || !strings.HasPrefix(r.stderr, "pilot: ") {
			t.Errorf("%v: exit %d %q", bad, r.code, r.stderr)
		}
	}
	if r := runCLI(t, env, "", "-p", "x", "--project", filepath.Join(dir, "missing")); r.code != 1 || !strings.Contains(r.stderr, "does not exist") {
		t.Errorf("missing project: %d %q", r.code, r.stderr)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestReplInProcess(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Hello there.", When: &fakellm.When{LastUserContains: "hi"}},
		{Text: "Still here.", When: &fakellm.When{LastUserContains: "again"}},
	}})
	defer srv.Close()
	dir := tempProject(t, nil)
	r := runCLI(t, fakeEnv(t, srv, "openai"), "hi\n\nagain\nexit\n", "repl", "--project", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != "You: Hello there.\n\nYou: You: Still here.\n\nYou: " {
		t.Errorf("stdout %q", r.stdout)
	}
	// Ctrl+D (end of input) leaves too.
	if r := runCLI(t, fakeEnv(t, srv, "openai"), "", "repl", "--project", dir); r.code != 0 || r.stdout != "You: \n" {
		t.Errorf("EOF: %d %q", r.code, r.stdout)
	}
}

func TestParseRunArgs(t *testing.T) {
	t.Parallel()
	a, err := parseRunArgs([]string{"-p", "do it", "--project=/x", "--resume", "7", "--approve", "edits", "--provider", "openai", "--model=m", "--json"}, true)
	want := runArgs{prompt: "do it", project: "/x", resume: 7, approve: wire.ModeEdits, provider: "openai", model: "m", json: true, elicit: elicitDecline}
	if err != nil || a != want {
		t.Errorf("%+v %v", a, err)
	}
	if a, err := parseRunArgs(nil, false); err != nil || a.approve != wire.ModeAsk || a.elicit != elicitDecline {
		t.Errorf("repl defaults %+v %v", a, err)
	}
	if a, err := parseRunArgs([]string{"--elicit=defaults"}, false); err != nil || a.elicit != elicitDefaults {
		t.Errorf("--elicit=defaults: %+v %v", a, err)
	}
	if _, err := parseRunArgs([]string{"--elicit", "accept"}, false); err == nil || err.Error() != `--elicit is decline or defaults, not "accept"` {
		t.Errorf("--elicit accept: %v", err)
	}
}

// TestPromptThinking: `pilot -p` thinks with PILOT_THINKING_BUDGET on
// Anthropic, sends nothing new to an OpenAI-compatible server, and stops
// with a one-line reason when the budget is not one.
func TestPromptThinking(t *testing.T) {
	t.Parallel()
	cases := []struct {
		format, budget, sent, err string
	}{
		{"anthropic", "4096", "map[budget_tokens:4096 type:enabled]", ""},
		{"openai", "4096", "<nil>", ""},
		{"anthropic", "16k", "", `pilot: PILOT_THINKING_BUDGET="16k" is not a number of tokens: use 0 (off) or a budget of at least 1024, e.g. 16384` + "\n"},
	}
	for _, c := range cases {
		t.Run(c.format+"/"+c.budget, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello."}}})
			defer srv.Close()
			env := fakeEnv(t, srv, c.format)
			env["PILOT_THINKING_BUDGET"] = c.budget
			r := runCLI(t, env, "", "-p", "Hi", "--project", tempProject(t, nil))
			if c.err != "" {
				if r.code == 0 || r.stderr != c.err || len(srv.Requests()) != 0 {
					t.Fatalf("exit %d, stderr %q, %d requests", r.code, r.stderr, len(srv.Requests()))
				}
				return
			}
			if r.code != 0 || r.stdout != "Hello.\n" {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			if got := fmt.Sprint(srv.Requests()[0].Body["thinking"]); got != c.sent {
				t.Errorf("thinking sent %s, want %s", got, c.sent)
			}
		})
	}
}

// TestPromptRefusal: a refused answer (Anthropic's stop_reason "refusal",
// documented shape in llm/testdata/anthropic_refusal.sse) is not a
// success: pilot -p exits 1 with one sentence that says so and why.
func TestPromptRefusal(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Fixture: "../llm/testdata/anthropic_refusal.sse"}}})
	defer srv.Close()
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), "", "-p", "Do the forbidden thing", "--project", tempProject(t, nil))
	want := "pilot: The model declined to answer this request: This request was declined because it could enable cyber harm. Asking again in this session will likely be declined too: rephrase the request in a new session (session 1)\n"
	if r.code != 1 || r.stderr != want || strings.TrimSpace(r.stdout) != "" {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, want)
	}
}

// A call that could not be done says why on stderr, where -p shows its
// calls: without it the user saw the call announced and nothing else.
func TestPromptShowsFailedCall(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "x", Name: "no_such_tool", Input: []byte(`{}`)}}},
		{Text: "Gave up."},
	}})
	defer srv.Close()
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), "", "-p", "Try it", "--project", tempProject(t, nil), "--approve", "none")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr %s", r.code, r.stderr)
	}
	if want := "  (failed: There is no tool called \"no_such_tool\". The tools are: list_files, "; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want %q in it", r.stderr, want)
	}
}
