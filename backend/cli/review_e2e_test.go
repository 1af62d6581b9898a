package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// Sum with a bug planted on line 5: the loop stops one short.
const (
	sumRight = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
	sumBug   = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs)-1; i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"
)

// TestReviewThroughTheBinary: pilot review of the uncommitted changes
// prints the scripted reviewer's finding as calc.go:5: TEXT (its escape
// made visible), --json as one wire.ReviewFinding a line; --branch
// reviews a worktree session's branch; no changes is exit 0 with a
// sentence, a wrong command line exit 2; the reviewer wrote nothing.
func TestReviewThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: []byte(`{"path":"calc.go","line":5,"text":"The loop skips the last element \u001b[31m(len(xs)-1)."}`)},
			{Name: "write_file", Input: []byte(`{"path":"calc.go","content":"x"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Review the uncommitted changes"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: []byte(`{"path":"calc.go","line":5,"text":"Off by one on the branch."}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Review branch pilot/fix"}},
		{Text: "Reviewed.", Repeat: true},
	}})
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"calc.go": sumRight})

	code, _, stderr := runBin(t, command(t, srv, home, "review", "--project", repo), "")
	if code != 0 || !strings.Contains(stderr, "no changes to review") {
		t.Fatalf("no changes: exit %d, %q", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(repo, "calc.go"), []byte(sumBug), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBin(t, command(t, srv, home, "review", "--uncommitted", "--project", repo), "")
	if code != 0 || stdout != "calc.go:5: The loop skips the last element \\e[31m(len(xs)-1).\n" {
		t.Fatalf("pilot review: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "1 finding, kept with session") {
		t.Errorf("stderr %q", stderr)
	}
	code, stdout, stderr = runBin(t, command(t, srv, home, "review", "--project", repo, "--json"), "")
	var f wire.ReviewFinding
	if code != 0 || strings.Count(stdout, "\n") != 1 || json.Unmarshal([]byte(stdout), &f) != nil ||
		f.Path != "calc.go" || f.Line != 5 || f.State != wire.FindingOpen || f.ID == 0 || f.SessionID == 0 || !strings.Contains(f.Text, "\x1b[31m") {
		t.Fatalf("pilot review --json: exit %d, %q (%s)", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "calc.go")); string(b) != sumBug {
		t.Errorf("the reviewer changed calc.go: %q", b)
	}

	code, stdout, stderr = runBin(t, command(t, srv, home, "-p", "Start", "--project", repo, "--worktree", "fix", "--approve", "edits"), "")
	if code != 0 {
		t.Fatalf("pilot -p --worktree: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runBin(t, command(t, srv, home, "worktree", "list", "--project", repo, "--json"), "")
	var line wire.WorktreeLine
	if code != 0 || json.Unmarshal([]byte(stdout), &line) != nil {
		t.Fatalf("worktree list: %d %q", code, stdout)
	}
	if err := os.WriteFile(filepath.Join(line.Path, "calc.go"), []byte(sumBug), 0o644); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(line.SessionID, 10)
	code, stdout, stderr = runBin(t, command(t, srv, home, "review", "--branch", id), "")
	if code != 0 || stdout != "calc.go:5: Off by one on the branch.\n" || !strings.Contains(stderr, "session "+id) {
		t.Fatalf("pilot review --branch: exit %d, %q\n%s", code, stdout, stderr)
	}

	for _, args := range [][]string{{"review", "--branch", "x"}, {"review", "--branch", id, "--uncommitted"}, {"review", "extra"}, {"review", "--nope"}} {
		if code, _, stderr := runBin(t, command(t, srv, home, args...), ""); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("%q: exit %d, %q; want 2 and the usage", args, code, stderr)
		}
	}
}
