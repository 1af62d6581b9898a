package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// A folder reached through a link and by its real path is one project:
// `pilot -p --project LINK` and `pilot -p --project REAL` add to the same
// history, which `pilot sessions list --project REAL` shows whole.
func TestHeadlessLinkAndRealPathAreOneProject(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello.", Repeat: true}}})
	defer srv.Close()
	home := t.TempDir()
	real, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{link, real} {
		if out, err := command(t, srv, home, "-p", "hi from "+filepath.Base(dir), "--project", dir).CombinedOutput(); err != nil {
			t.Fatalf("pilot -p --project %s: %v\n%s", dir, err, out)
		}
	}
	out, err := command(t, srv, home, "sessions", "list", "--project", real, "--json").Output()
	if err != nil {
		t.Fatalf("sessions list: %v\n%s", err, out)
	}
	var ids []int64
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var s struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("sessions list line %q: %v", line, err)
		}
		ids = append(ids, s.ID)
	}
	if len(ids) != 2 {
		t.Errorf("sessions list --project REAL lists %d sessions, want both (through the link and the real path):\n%s", len(ids), out)
	}
}

// --project wins over PILOT_PROJECT, which is then left alone: the run
// does not register it as a project.
func TestHeadlessProjectFlagLeavesPilotProjectAlone(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello.", Repeat: true}}})
	defer srv.Close()
	env := fakeEnv(t, srv, "anthropic")
	other, dir := tempProject(t, nil), tempProject(t, nil)
	env["PILOT_PROJECT"] = other
	if r := runCLI(t, env, "", "-p", "hi", "--project", dir); r.code != 0 {
		t.Fatalf("pilot -p: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "list", "--project", other); !strings.Contains(r.stdout, "has not been opened") {
		t.Errorf("PILOT_PROJECT was opened although --project was given:\n%s%s", r.stdout, r.stderr)
	}
}
