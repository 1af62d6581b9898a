package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"pilot/backend/internal/fakellm"
)

// openPTY returns a new pseudo-terminal's controller and its terminal.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

// A terminal on stdin is never read for -p PROMPT (nobody types, the run
// ends); for -p - it is read to Ctrl+D.
func TestStdinBinaryTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, typed, sent string
		args              []string
	}{
		{"pilot -p x on a terminal", "", "x", []string{"-p", "x"}},
		{"pilot -p - on a terminal", "from the terminal\n\x04", "from the terminal", []string{"-p", "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "OK.", Repeat: true}}})
			defer srv.Close()
			ptmx, tty := openPTY(t)
			cmd := command(t, srv, t.TempDir(), append(c.args, "--project", t.TempDir())...)
			var stdout, stderr bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := ptmx.WriteString(c.typed); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("%v\n%s", err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("pilot %q still runs: it waits on the terminal\n%s", c.args, stderr.String())
			}
			if asked := strings.Contains(stderr.String(), "type the prompt, then Ctrl+D"); asked != (c.typed != "") {
				t.Errorf("stderr %q", stderr.String())
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].LastUserText != c.sent || stdout.String() != "OK.\n" {
				t.Errorf("requests %+v, stdout %q", reqs, stdout.String())
			}
		})
	}
}
