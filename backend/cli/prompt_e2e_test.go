package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// pilotBinary builds the real binary once (main.go embeds frontend/dist,
// which `make frontend` produces).
func pilotBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := os.Stat("../../frontend/dist/index.html"); err != nil {
		t.Skip("frontend/dist is missing: run make frontend")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pilot-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "pilot")
		cmd := exec.Command("go", "build", "-tags", "webkit2_41,sqlite_fts5", "-o", binary, ".")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binary
}

// command runs the binary in a clean environment pointed at srv.
func command(t *testing.T, srv *fakellm.Server, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(pilotBinary(t), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PILOT_HOME=" + home,
		"PILOT_PROVIDER=anthropic", "ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-test"}
	return cmd
}

func TestHeadlessBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Mark"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := t.TempDir()
	for _, c := range []struct{ approve, want string }{{"all", "status: final\n"}, {"none", "status: draft\n"}} {
		dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
		cmd := command(t, srv, home, "-p", "Mark the notes final", "--project", dir, "--approve", c.approve)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("--approve %s: %v\n%s", c.approve, err, stderr.String())
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != c.want {
			t.Errorf("--approve %s: notes.txt = %q", c.approve, b)
		}
		if stdout.String() != "Done.\n" || !strings.Contains(stderr.String(), "→ Patching file: notes.txt") {
			t.Errorf("--approve %s: stdout %q stderr %q", c.approve, stdout.String(), stderr.String())
		}
		list, err := command(t, srv, home, "sessions", "list", "--project", dir).CombinedOutput()
		if err != nil || !strings.Contains(string(list), "Mark the notes final") {
			t.Errorf("sessions list: %v\n%s", err, list)
		}
	}
}

func TestHeadlessBinaryInterrupt(t *testing.T) {
	t.Parallel()
	slow := fakellm.Turn{Text: strings.Repeat("slow ", 2000), Fault: &fakellm.Fault{DelayMs: 5}, Repeat: true, When: &fakellm.When{LastUserContains: "long"}}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{slow, {Text: "Short.", Repeat: true, When: &fakellm.When{LastUserContains: "short"}}}})
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()

	// pilot -p: Ctrl+C cancels the turn and exits 130.
	cmd := command(t, srv, home, "-p", "write long", "--project", dir)
	out, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "slow")
	cmd.Process.Signal(syscall.SIGINT)
	go io.Copy(io.Discard, out)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.Contains(stderr.String(), "pilot: cancelled") {
		t.Errorf("pilot -p after Ctrl+C: %v %q", err, stderr.String())
	}

	// pilot repl: Ctrl+C cancels the answer, the REPL goes on, exit leaves.
	repl := command(t, srv, home, "repl", "--project", dir)
	in, _ := repl.StdinPipe()
	rout, _ := repl.StdoutPipe()
	repl.Stderr = io.Discard
	if err := repl.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(rout)
	waitFor(t, r, "You: ")
	io.WriteString(in, "write long\n")
	waitFor(t, r, "slow")
	repl.Process.Signal(syscall.SIGINT)
	waitFor(t, r, "You: ")
	io.WriteString(in, "now short\n")
	waitFor(t, r, "Short.")
	io.WriteString(in, "exit\n")
	go io.Copy(io.Discard, r)
	if err := repl.Wait(); err != nil {
		t.Errorf("repl exit: %v", err)
	}
}

// waitFor reads r until it has seen s.
func waitFor(t *testing.T, r io.Reader, s string) {
	t.Helper()
	found := make(chan bool, 1)
	go func() {
		var seen []byte
		buf := make([]byte, 256)
		for {
			n, err := r.Read(buf)
			seen = append(seen, buf[:n]...)
			if bytes.Contains(seen, []byte(s)) {
				found <- true
				return
			}
			if err != nil {
				found <- false
				return
			}
		}
	}()
	select {
	case ok := <-found:
		if !ok {
			t.Fatalf("output ended before %q", s)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("no %q in the output", s)
	}
}
