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
}

func TestDoctorText(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"doctor"}, IO{Stdout: &out, Stderr: &errb})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 8 || (code == 0) != strings.Contains(out.String(), "Everything Pilot needs is ready.") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if code := Run(context.Background(), []string{"doctor", "--frob"}, IO{Stdout: &out, Stderr: &errb}); code != exitUsage {
		t.Fatalf("a bad argument: exit %d", code)
	}
}
