package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

func TestHeadlessSlashCommand(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Reviewed.", Repeat: true}}})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, nil)
	os.MkdirAll(filepath.Join(dir, ".pilot", "commands"), 0o755)
	os.WriteFile(filepath.Join(dir, ".pilot", "commands", "review.md"), []byte("---\ndescription: Review a file\n---\nReview $1, looking for $2. All: $ARGUMENTS"), 0o644)
	os.MkdirAll(filepath.Join(home, "commands"), 0o755)
	os.WriteFile(filepath.Join(home, "commands", "hello.md"), []byte("Say hello to $ARGUMENTS."), 0o644)

	run := func(prompt string) (string, string, error) {
		cmd := command(t, srv, home, "-p", prompt, "--project", dir, "--approve", "none")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	if _, stderr, err := run(`/review main.go "data races"`); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].LastUserText; got != "Review main.go, looking for data races. All: main.go \"data races\"" {
		t.Fatalf("the model got %q", got)
	}
	if _, stderr, err := run("/hello world"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	reqs = srv.Requests()
	if got := reqs[len(reqs)-1].LastUserText; got != "Say hello to world." {
		t.Fatalf("user command: the model got %q", got)
	}
	n := len(srv.Requests())
	_, stderr, err := run("/nope x")
	if err == nil || !strings.Contains(stderr, "unknown command") || len(srv.Requests()) != n {
		t.Fatalf("an unknown command: %v, %q", err, stderr)
	}
}
