//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
)

// Finding 8: AGENTS.md, .mcp.json, .env and a command file as a link to
// /dev/zero or as a FIFO: `pilot -p` and `pilot setup` finish on their
// own (the process waited on, with a deadline that kills it), their peak
// memory stays small, each says which file was not read, and SIGINT ends
// a run in its turn.
func TestProjectFilesCannotHangOrGrow(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"AGENTS.md", ".mcp.json", ".env", ".claude/commands/x.md"} {
		for _, kind := range []string{"zero", "fifo"} {
			t.Run(file+" "+kind, func(t *testing.T) {
				t.Parallel()
				srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Done.", Repeat: true}}})
				defer srv.Close()
				home, dir := t.TempDir(), t.TempDir()
				env := filesEnv(t, srv, home, "sk-ant-saved-key-000000") // a saved key: the project's .env is read
				plantSpecial(t, filepath.Join(dir, file), kind)
				prompt := "Hello"
				if strings.HasPrefix(file, ".claude/commands/") {
					prompt = "/x"
				}
				_, stderr, code, rss := filesRun(t, env, "-p", prompt, "--project", dir, "--approve", "none")
				if rss > maxRSSKiB {
					t.Errorf("pilot -p peaked at %d MiB", rss>>10)
				}
				if (code != 0) != (prompt == "/x") {
					t.Errorf("pilot -p: exit %d\n%s", code, stderr)
				}
				if !strings.Contains(stderr, file+" was not read: it is ") {
					t.Errorf("pilot -p does not say %s was not read:\n%s", file, stderr)
				}
				stdout, stderr, code, rss := filesRun(t, env, "setup", "--project", dir)
				if code != 0 || rss > maxRSSKiB {
					t.Errorf("pilot setup: exit %d, peak %d MiB\n%s", code, rss>>10, stderr)
				}
				if file != ".env" && !strings.Contains(stdout, file+" was not read: it is ") {
					t.Errorf("pilot setup does not say %s was not read:\n%s", file, stdout)
				}
				if kind == "fifo" && prompt != "/x" {
					interruptInTurn(t, env, dir)
				}
			})
		}
	}
}

// plantSpecial makes path a link to /dev/zero or a FIFO.
func plantSpecial(t *testing.T, path, kind string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	if kind == "zero" {
		err = os.Symlink("/dev/zero", path)
	} else {
		err = syscall.Mkfifo(path, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// interruptInTurn starts `pilot -p` in dir on a model that stalls, waits
// until the model has the request (the run got past reading the project's
// files), sends SIGINT and waits for the exit: 130, promptly.
func interruptInTurn(t *testing.T, env []string, dir string) {
	t.Helper()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "never finished", Repeat: true, Fault: &fakellm.Fault{StallAfterEvents: 1}}}})
	defer srv.Close()
	env = append(env[:len(env):len(env)], "ANTHROPIC_BASE_URL="+srv.URL())
	cmd := exec.Command(pilotBinary(t), "-p", "Hello", "--project", dir, "--approve", "none")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	for len(srv.Requests()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("pilot -p ended before its turn: %v\n%s", err, stderr.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			<-done
			t.Fatalf("pilot -p never reached the model (stuck before its turn)\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond): // poll the condition
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("after SIGINT: exit %d, want 130\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Errorf("SIGINT did not end pilot -p\n%s", stderr.String())
	}
}
