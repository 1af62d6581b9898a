package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A subcommand reads the folder it names and opens no other: with
// PILOT_PROJECT set, pilot rules list and pilot sessions list leave that
// folder never opened (the service opens PILOT_PROJECT at start for the
// window, which would remember it as a project).
func TestSubcommandsOpenNoProject(t *testing.T) {
	t.Parallel()
	home, dir, other := t.TempDir(), t.TempDir(), t.TempDir()
	env := map[string]string{"PILOT_HOME": home, "PILOT_PROJECT": dir}
	run := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), args, IO{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
		return out.String(), errOut.String(), code
	}
	if out, errOut, code := run("rules", "list"); code != 0 || !strings.Contains(out, "No rules in "+dir) {
		t.Fatalf("rules list: exit %d %q %q", code, out, errOut)
	}
	if out, errOut, code := run("sessions", "list", "--project", other); code != 0 || !strings.Contains(out, "has not been opened") {
		t.Fatalf("sessions list: exit %d %q %q", code, out, errOut)
	}
	if _, errOut, code := run("rules", "remove", "1"); code != 1 || !strings.Contains(errOut, dir+" has not been opened in Pilot, so it has no rule 1.") {
		t.Errorf("PILOT_PROJECT was opened by a subcommand: exit %d %q", code, errOut)
	}
	if out, _, _ := run("sessions", "list", "--project", dir); !strings.Contains(out, "No sessions: "+dir+" has not been opened in Pilot yet.") {
		t.Errorf("PILOT_PROJECT was opened by a subcommand: %q", out)
	}
}
