package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/sandbox"
)

func bashCall(id, command string, extra ...any) fakellm.ToolCall {
	in := map[string]any{"command": command, "timeout_seconds": 20}
	for i := 0; i+1 < len(extra); i += 2 {
		in[extra[i].(string)] = extra[i+1]
	}
	b, _ := json.Marshal(in)
	return fakellm.ToolCall{ID: id, Name: "run_bash", Input: b}
}

// sandboxRun runs one headless turn of the production binary in which the
// scripted model makes calls, with HOME a test home (a canary under
// .ssh), PILOT_HOME inside it, no terminal, and returns each call's
// result by id and stderr.
func sandboxRun(t *testing.T, mode, dir, home string, calls []fakellm.ToolCall, rules ...[3]string) (map[string]fakellm.ToolResult, string) {
	t.Helper()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: calls, When: &fakellm.When{LastUserContains: "Try"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	data := filepath.Join(home, ".config", "pilot")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if len(rules) > 0 {
		addRules(t, data, dir, rules...)
	}
	cmd := exec.Command(pilotBinary(t), "-p", "Try the commands", "--project", dir, "--approve", mode)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + data,
		"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pilot -p --approve %s: %v\n%s", mode, err, stderr.String())
	}
	results := map[string]fakellm.ToolResult{}
	for _, r := range srv.Requests() {
		for _, tr := range r.ToolResults {
			results[tr.ToolUseID] = tr
		}
	}
	if len(results) != len(calls) {
		t.Fatalf("%d results for %d calls\n%s", len(results), len(calls), stderr.String())
	}
	return results, stderr.String()
}

func sandboxHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_canary"), []byte("CANARY-SSH-KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func needSandbox(t *testing.T) {
	t.Helper()
	if st := sandbox.Probe(); !st.Ready {
		if os.Getenv("CI") != "" {
			t.Fatalf("the sandbox is not ready on CI: %s", st.Why)
		}
		t.Skipf("the sandbox is not ready here: %s", st.Why)
	}
}

// Headless under --approve edits with no terminal: a sandboxed command
// runs and writes inside the project without asking, and is blocked,
// with a sentence naming the sandbox, for writing to $HOME, writing to
// /tmp outside its private folder, reading a canary under ~/.ssh,
// connecting to a listener on the host and signalling a process outside.
func TestHeadlessSandboxEdits(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	home := sandboxHome(t)
	dir := tempProject(t, map[string]string{"a.txt": "A\n"})
	tmpMark := filepath.Join(os.TempDir(), fmt.Sprintf("pilot-escape-%d", os.Getpid()))
	t.Cleanup(func() { os.Remove(tmpMark) })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port

	victim := exec.Command("sleep", "300")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()

	calls := []fakellm.ToolCall{
		bashCall("write", "echo made-inside > made.txt && cat made.txt"),
		bashCall("home", `echo x > "$HOME/pwned"`),
		bashCall("tmp", "echo x > "+tmpMark),
		bashCall("ssh", `cat "$HOME/.ssh/id_canary"`),
		bashCall("tcp", fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)),
		bashCall("kill", fmt.Sprintf("kill -TERM %d", victim.Process.Pid)),
	}
	results, stderr := sandboxRun(t, "edits", dir, home, calls)

	if b, err := os.ReadFile(filepath.Join(dir, "made.txt")); err != nil || string(b) != "made-inside\n" {
		t.Errorf("the sandboxed command did not write inside the project: %q, %v; result %q", b, err, results["write"].Content)
	}
	for id, r := range results {
		t.Logf("%s: %s", id, r.Content)
	}
	if results["write"].IsError {
		t.Errorf("the write inside the project failed: %q", results["write"].Content)
	}
	if _, err := os.Stat(filepath.Join(home, "pwned")); err == nil {
		t.Errorf("a command wrote to $HOME")
	}
	if _, err := os.Stat(tmpMark); err == nil {
		t.Errorf("a command wrote to %s, outside its private temporary folder", tmpMark)
	}
	if strings.Contains(results["ssh"].Content, "CANARY") {
		t.Errorf("a command read the canary under ~/.ssh: %q", results["ssh"].Content)
	}
	if n := accepted.Load(); n != 0 || strings.Contains(results["tcp"].Content, "connected") {
		t.Errorf("a command reached a listener on the host (%d connections): %q", n, results["tcp"].Content)
	}
	if err := victim.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the process outside was signalled: %v", err)
	}
	for _, id := range []string{"home", "tmp", "ssh", "tcp", "kill"} {
		if !strings.Contains(results[id].Content, "sandbox") {
			t.Errorf("%s: the result does not say the sandbox blocked it: %q", id, results[id].Content)
		}
	}
	if strings.Contains(stderr, "Allow?") {
		t.Errorf("a sandboxed command asked under edits:\n%s", stderr)
	}
}

// sandbox: false asks (refused headless without a terminal, with a
// sentence) in every mode but all, where it runs outside the sandbox.
func TestHeadlessUnsandboxed(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, mode := range []string{"ask", "edits", "all"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			home := sandboxHome(t)
			dir := tempProject(t, map[string]string{"a.txt": "A\n"})
			out := filepath.Join(home, "outside-"+mode)
			results, _ := sandboxRun(t, mode, dir, home, []fakellm.ToolCall{
				bashCall("out", "touch "+out, "sandbox", false, "reason", "write a marker in the home folder"),
			})
			_, err := os.Stat(out)
			switch {
			case mode == "all" && err != nil:
				t.Errorf("under all, sandbox:false did not run outside: %q", results["out"].Content)
			case mode != "all" && err == nil:
				t.Errorf("under %s, sandbox:false ran without a yes", mode)
			case mode != "all" && !strings.Contains(results["out"].Content, "sandbox"):
				t.Errorf("under %s the refusal does not say why: %q", mode, results["out"].Content)
			}
		})
	}
}

// Network by host: a request through the proxy to a host a rule allows
// succeeds; one to a host no rule allows is refused headless, with a
// sentence, and reaches nothing.
func TestHeadlessSandboxNetwork(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	var hitsAllowed, hitsOther atomic.Int32
	serve := func(addr string, hits *atomic.Int32, body string) string {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("cannot listen on %s: %v", addr, err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			_, _ = io.WriteString(w, body)
		})}
		go func() { _ = srv.Serve(ln) }()
		t.Cleanup(func() { srv.Close() })
		return ln.Addr().String()
	}
	allowed := serve("127.0.0.2:0", &hitsAllowed, "HELLO-FROM-ALLOWED")
	other := serve("127.0.0.3:0", &hitsOther, "HELLO-FROM-OTHER")
	home := sandboxHome(t)
	dir := tempProject(t, map[string]string{"a.txt": "A\n"})
	results, _ := sandboxRun(t, "edits", dir, home, []fakellm.ToolCall{
		bashCall("allowed", "curl -sS http://"+allowed+"/"),
		bashCall("other", "curl -sS http://"+other+"/"),
		bashCall("public", "curl -sS http://unallowed.example/"),
	}, [3]string{"allow", "network", "127.0.0.2"})
	t.Logf("allowed: %s\nother: %s\npublic: %s", results["allowed"].Content, results["other"].Content, results["public"].Content)
	if !strings.Contains(results["allowed"].Content, "HELLO-FROM-ALLOWED") || hitsAllowed.Load() == 0 {
		t.Errorf("the allowed host was not reached through the proxy: %q", results["allowed"].Content)
	}
	if hitsOther.Load() != 0 || strings.Contains(results["other"].Content, "HELLO-FROM-OTHER") {
		t.Errorf("a host no rule allows was reached: %q", results["other"].Content)
	}
	if !strings.Contains(results["other"].Content, "127.0.0.3") {
		t.Errorf("the refusal does not name the host: %q", results["other"].Content)
	}
	// A public name no rule allows is asked about, which headless without
	// a terminal is a refusal, told with the host.
	if got := results["public"].Content; !strings.Contains(got, "The sandbox refused the connection to unallowed.example:80: it was not allowed (nobody is at a terminal") {
		t.Errorf("a host no rule allows was not refused with a sentence: %q", got)
	}
}

// noBwrapPath is a PATH holding bash and the few programs the commands
// below use, without bubblewrap: a machine where the sandbox cannot start.
func noBwrapPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, name := range []string{"bash", "touch", "cat", "git"} {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if err := os.Symlink(p, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// Where the sandbox cannot start (no bubblewrap on PATH), pilot doctor
// says why and what to install and exits 1; under edits a command is
// asked as before the sandbox (refused headless, with the why), never run
// unsandboxed silently; under all it runs with the user's rights, as
// before.
func TestHeadlessNoSandbox(t *testing.T) {
	t.Parallel()
	path := noBwrapPath(t)
	doc := exec.Command(pilotBinary(t), "doctor")
	doc.Env = []string{"PATH=" + path, "HOME=" + t.TempDir()}
	out, _ := doc.CombinedOutput()
	if doc.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "install the package bubblewrap") {
		t.Errorf("pilot doctor without bubblewrap: exit %d\n%s", doc.ProcessState.ExitCode(), out)
	}
	for _, mode := range []string{"edits", "all"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			home := sandboxHome(t)
			dir := tempProject(t, map[string]string{"a.txt": "A\n"})
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{bashCall("c", "touch made.txt")}, When: &fakellm.When{LastUserContains: "Try"}},
				{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			data := filepath.Join(home, ".config", "pilot")
			cmd := exec.Command(pilotBinary(t), "-p", "Try it", "--project", dir, "--approve", mode)
			cmd.Env = []string{"PATH=" + path, "HOME=" + home, "PILOT_HOME=" + data,
				"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var result string
			for _, r := range srv.Requests() {
				for _, tr := range r.ToolResults {
					result = tr.Content
				}
			}
			_, err := os.Stat(filepath.Join(dir, "made.txt"))
			switch mode {
			case "edits":
				if err == nil {
					t.Errorf("under edits without a sandbox the command ran without a yes: %q", result)
				}
				if !strings.Contains(stderr.String()+result, "bubblewrap") {
					t.Errorf("nothing says why the sandbox could not start:\nresult %q\nstderr %s", result, stderr.String())
				}
			case "all":
				if err != nil {
					t.Errorf("under all without a sandbox the command did not run: %q", result)
				}
			}
		})
	}
}
