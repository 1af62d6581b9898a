package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// pilot doctor --json through the real binary: main.go makes the binary a
// pod when asked, so the proxy check's pod is Pilot itself; the report is
// typed, and the exit code says whether everything needed is ready.
func TestDoctorBinary(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(pilotBinary(t), "doctor", "--json")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	r := decodeStrict[wire.DoctorReport](t, string(out))
	if r.Ready != (cmd.ProcessState.ExitCode() == 0) {
		t.Fatalf("ready %v, exit %d", r.Ready, cmd.ProcessState.ExitCode())
	}
	if _, err := exec.LookPath("bwrap"); err == nil && !r.Ready {
		t.Fatalf("bwrap is here, yet: %s", out)
	}
	// The language servers are optional: Ready is the needed checks' alone.
	ready := true
	for _, c := range r.Checks {
		ready = ready && (c.OK || !c.Needed)
	}
	if ready != r.Ready {
		t.Errorf("ready %v, yet the needed checks say %v: %s", r.Ready, ready, out)
	}
}

// The language servers' lines: where a found one is and its version, how
// to install a missing one, why a failed one failed.
func TestDoctorLanguageServerLines(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	writeLanguageServers(&b, []wire.LanguageServer{
		{Name: "gopls", State: wire.ServerFound, Path: "/usr/bin/gopls", Version: "v0.23.0"},
		{Name: "clangd", State: wire.ServerMissing, Install: "sudo apt-get install clangd"},
		{Name: "zls", State: wire.ServerFailed, Path: "/opt/zls", LastError: "it exited with status 1"},
		{Name: "pyright-langserver", State: wire.ServerRunning, Path: "/x/pyright-langserver"},
	})
	want := "Language servers (optional: the agent reads their diagnostics after each change):\n" +
		"ok   gopls            /usr/bin/gopls (v0.23.0)\n" +
		"--   clangd           not found on PATH; install it with: sudo apt-get install clangd\n" +
		"--   zls              /opt/zls failed: it exited with status 1\n" +
		"ok   pyright-langserver /x/pyright-langserver (version unknown)\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	writeLanguageServers(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no servers: %q", b.String())
	}
}

func TestDoctorText(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"doctor"}, IO{Stdout: &out, Stderr: &errb})
	text, _, _ := strings.Cut(out.String(), "Language servers (optional")
	var lines []string // the checks' lines, before the language servers'
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "ok  ") || strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "--  ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 7 || (code == 0) != strings.Contains(out.String(), "Everything Pilot needs is ready.") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if code := Run(context.Background(), []string{"doctor", "--frob"}, IO{Stdout: &out, Stderr: &errb}); code != exitUsage {
		t.Fatalf("a bad argument: exit %d", code)
	}
}
