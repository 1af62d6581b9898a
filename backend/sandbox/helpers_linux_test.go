//go:build linux

package sandbox

import (
	"context"
	"io"
	"os"
	"testing"
)

// needSandbox skips where bwrap cannot start a sandbox (CI installs it).
func needSandbox(t *testing.T) {
	t.Helper()
	if st := Probe(); !st.Ready {
		t.Skipf("no sandbox on this machine: %s", st.Why)
	}
}

// run runs a command in s and returns its output and exit code.
func run(t *testing.T, s *Session, dir string, env []string, command string) (string, int) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	p, err := s.Start(context.Background(), Cmd{Command: command, Dir: dir, Env: env, Output: pw})
	pw.Close()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- b
	}()
	code, err := p.Wait()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	p.Kill() // what is left of its group, as run_bash does
	return string(<-done), code
}

// baseEnv is a command's environment in the tests.
func baseEnv(home string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C"}
}
