package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// gitProject is tempProject committed as a git repository.
func gitProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := tempProject(t, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start"}} {
		gitOut(t, dir, args...)
	}
	return dir
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// runBin runs the binary and returns its exit code, stdout and stderr.
func runBin(t *testing.T, cmd *exec.Cmd, stdin string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// TestHeadlessWorktree: pilot -p --worktree works in a new worktree on
// pilot/NAME and leaves the user's tree alone; pilot worktree list shows
// it; discard without --yes only says what it would remove, with --yes
// removes worktree and branch (git worktree list and git branch checked).
func TestHeadlessWorktree(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(editScript())
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"notes.txt": "a draft\n"})

	code, stdout, stderr := runBin(t, command(t, srv, home, "-p", "Mark it final", "--project", repo, "--worktree", "fix", "--approve", "edits"), "")
	if code != 0 || !strings.Contains(stdout, "Marked it final.") {
		t.Fatalf("pilot -p --worktree: exit %d\n%s\n%s", code, stdout, stderr)
	}
	wt := filepath.Join(home, "worktrees", "1", "fix")
	if !strings.Contains(stderr, "works in the worktree "+wt+" on branch pilot/fix") {
		t.Errorf("stderr does not say where the session works:\n%s", stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "notes.txt")); string(b) != "a final\n" {
		t.Errorf("the worktree's notes.txt = %q, want the edit", b)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "a draft\n" {
		t.Errorf("the user's notes.txt = %q, want it untouched", b)
	}
	if st := gitOut(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the user's tree is not clean: %q", st)
	}

	code, stdout, stderr = runBin(t, command(t, srv, home, "worktree", "list", "--project", repo, "--json"), "")
	var line wire.WorktreeLine
	if code != 0 || json.Unmarshal([]byte(stdout), &line) != nil || line.Branch != "pilot/fix" || line.Path != wt || line.SessionID == 0 || line.Discarded {
		t.Fatalf("worktree list --json: exit %d, %q (%s)", code, stdout, stderr)
	}
	if code, stdout, _ = runBin(t, command(t, srv, home, "worktree", "list", "--project", repo), ""); code != 0 || !strings.Contains(stdout, "pilot/fix") || !strings.Contains(stdout, wt) {
		t.Fatalf("worktree list: exit %d, %q", code, stdout)
	}

	id := strconv.FormatInt(line.SessionID, 10)
	// Bring the branch home: refused over the user's uncommitted change to
	// the same file (exit 1, their file untouched), merged once it is gone.
	notes := filepath.Join(repo, "notes.txt")
	if err := os.WriteFile(notes, []byte("the user's draft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runBin(t, command(t, srv, home, "worktree", "merge", id), "")
	if code != 1 || !strings.Contains(stdout, "You changed notes.txt") || !strings.Contains(stderr, "--force") {
		t.Fatalf("worktree merge over an uncommitted change: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(notes); string(b) != "the user's draft\n" {
		t.Fatalf("the refused merge changed the user's notes.txt: %q", b)
	}
	gitOut(t, repo, "checkout", "--", "notes.txt")
	code, stdout, stderr = runBin(t, command(t, srv, home, "worktree", "merge", id, "--hunks", "all"), "")
	if code != 0 {
		t.Fatalf("worktree merge --hunks all: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(notes); string(b) != "a final\n" {
		t.Fatalf("after the merge the user's notes.txt = %q, want the branch's edit", b)
	}

	code, _, stderr = runBin(t, command(t, srv, home, "worktree", "discard", id), "")
	if code != 2 || !strings.Contains(stderr, wt) || !strings.Contains(stderr, "pilot/fix") || !strings.Contains(stderr, "--yes") {
		t.Fatalf("discard without --yes: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(wt); err != nil {
		t.Fatalf("discard without --yes removed the worktree: %v", err)
	}
	code, stdout, stderr = runBin(t, command(t, srv, home, "worktree", "discard", id, "--yes"), "")
	if code != 0 || !strings.Contains(stdout, "Removed the worktree") {
		t.Fatalf("discard --yes: exit %d, %q %q", code, stdout, stderr)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if got := gitOut(t, repo, "worktree", "list", "--porcelain"); strings.Contains(got, wt) {
		t.Errorf("git worktree list still has it: %s", got)
	}
	if got := gitOut(t, repo, "branch", "--list", "pilot/fix"); got != "" {
		t.Errorf("git branch still has pilot/fix: %q", got)
	}
	code, stdout, _ = runBin(t, command(t, srv, home, "worktree", "list", "--project", repo), "")
	if code != 0 || !strings.Contains(stdout, "discarded") {
		t.Errorf("the discarded session is not listed as discarded: %q", stdout)
	}
	code, _, stderr = runBin(t, command(t, srv, home, "-p", "more", "--resume", id), "")
	if code == 0 || !strings.Contains(stderr, "was discarded") {
		t.Errorf("a turn in the discarded session: exit %d, %q", code, stderr)
	}
}

// TestHeadlessWorktreeRefused: every wrong use ends with its exit code and
// a sentence, and leaves no worktree.
func TestHeadlessWorktreeRefused(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(editScript())
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"notes.txt": "a draft\n"})
	plain := tempProject(t, map[string]string{"notes.txt": "x\n"})
	for _, c := range []struct {
		what string
		args []string
		code int
		want string
	}{
		{"a bad name", []string{"-p", "x", "--project", repo, "--worktree", "a/b"}, 1, "cannot name a worktree"},
		{"not a repository", []string{"-p", "x", "--project", plain, "--worktree", "w"}, 1, "git init"},
		{"with --resume", []string{"-p", "x", "--worktree", "w", "--resume", "1"}, 2, "only one of them"},
		{"repl with a bad name", []string{"repl", "--project", repo, "--worktree", "-x"}, 1, "cannot name a worktree"},
		{"no subcommand", []string{"worktree"}, 2, "missing subcommand"},
		{"unknown subcommand", []string{"worktree", "frob"}, 2, "unknown subcommand"},
		{"not an id", []string{"worktree", "discard", "abc", "--yes"}, 2, "not a session id"},
		{"no such session", []string{"worktree", "discard", "99", "--yes"}, 1, "no session 99"},
	} {
		code, _, stderr := runBin(t, command(t, srv, home, c.args...), "")
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d and %q", c.what, code, stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "worktrees")); err == nil {
		entries, _ := filepath.Glob(filepath.Join(home, "worktrees", "*", "*"))
		if len(entries) != 0 {
			t.Errorf("worktrees left behind: %v", entries)
		}
	}
}

// TestReplWorktree: pilot repl --worktree works in its worktree; a repl
// left without a message deletes its empty session and its worktree.
func TestReplWorktree(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(editScript())
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"notes.txt": "a draft\n"})
	code, _, stderr := runBin(t, command(t, srv, home, "repl", "--project", repo, "--worktree", "talk", "--approve", "edits"), "Mark it final\n")
	wt := filepath.Join(home, "worktrees", "1", "talk")
	if code != 0 || !strings.Contains(stderr, "pilot/talk") {
		t.Fatalf("repl --worktree: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "notes.txt")); string(b) != "a final\n" {
		t.Errorf("the worktree's notes.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "a draft\n" {
		t.Errorf("the user's notes.txt = %q", b)
	}
	code, _, stderr = runBin(t, command(t, srv, home, "repl", "--project", repo, "--worktree", "idle"), "")
	if code != 0 {
		t.Fatalf("repl --worktree idle: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "worktrees", "1", "idle")); !os.IsNotExist(err) {
		t.Errorf("the worktree of a session never written in is still there: %v", err)
	}
	if got := gitOut(t, repo, "branch", "--list", "pilot/idle"); got != "" {
		t.Errorf("its branch is still there: %q", got)
	}
}

// avgPy averages xs; avgBug divides by one less than it should, on
// line 5.
const (
	avgPy  = "def average(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total / len(xs)\n"
	avgBug = "def average(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total / (len(xs) - 1)\n"
)

// TestReviewThroughTheBinary: pilot review of the uncommitted changes
// prints the scripted reviewer's finding as avg.py:5: TEXT (its escape
// made visible), --json as one wire.ReviewFinding a line; --branch
// reviews a worktree session's branch; no changes is exit 0 with a
// sentence, a wrong command line exit 2; the reviewer wrote nothing.
func TestReviewThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: []byte(`{"path":"avg.py","line":5,"text":"Divides by one less than the count \u001b[31m(len(xs) - 1)."}`)},
			{Name: "write_file", Input: []byte(`{"path":"avg.py","content":"x"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Review the uncommitted changes"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: []byte(`{"path":"avg.py","line":5,"text":"Off by one on the branch."}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Review branch pilot/fix"}},
		{Text: "Reviewed.", Repeat: true},
	}})
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"avg.py": avgPy})

	code, _, stderr := runBin(t, command(t, srv, home, "review", "--project", repo), "")
	if code != 0 || !strings.Contains(stderr, "no changes to review") {
		t.Fatalf("no changes: exit %d, %q", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(repo, "avg.py"), []byte(avgBug), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runBin(t, command(t, srv, home, "review", "--uncommitted", "--project", repo), "")
	if code != 0 || stdout != "avg.py:5: Divides by one less than the count \\e[31m(len(xs) - 1).\n" {
		t.Fatalf("pilot review: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "1 finding, kept with session") {
		t.Errorf("stderr %q", stderr)
	}
	code, stdout, stderr = runBin(t, command(t, srv, home, "review", "--project", repo, "--json"), "")
	var f wire.ReviewFinding
	if code != 0 || strings.Count(stdout, "\n") != 1 || json.Unmarshal([]byte(stdout), &f) != nil ||
		f.Path != "avg.py" || f.Line != 5 || f.State != wire.FindingOpen || f.ID == 0 || f.SessionID == 0 || !strings.Contains(f.Text, "\x1b[31m") {
		t.Fatalf("pilot review --json: exit %d, %q (%s)", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "avg.py")); string(b) != avgBug {
		t.Errorf("the reviewer changed avg.py: %q", b)
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
	if err := os.WriteFile(filepath.Join(line.Path, "avg.py"), []byte(avgBug), 0o644); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(line.SessionID, 10)
	code, stdout, stderr = runBin(t, command(t, srv, home, "review", "--branch", id), "")
	if code != 0 || stdout != "avg.py:5: Off by one on the branch.\n" || !strings.Contains(stderr, "session "+id) {
		t.Fatalf("pilot review --branch: exit %d, %q\n%s", code, stdout, stderr)
	}

	for _, args := range [][]string{{"review", "--branch", "x"}, {"review", "--branch", id, "--uncommitted"}, {"review", "extra"}, {"review", "--nope"}} {
		if code, _, stderr := runBin(t, command(t, srv, home, args...), ""); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("%q: exit %d, %q; want 2 and the usage", args, code, stderr)
		}
	}
}

// TestReviewSlashThroughTheBinary: /review as the prompt of pilot -p and
// typed in pilot repl runs pilot review's reviewer in the run's session
// and prints the planted bug's finding as pilot review does (path:line:
// text on stdout, the count and the session on stderr); a wrong scope is
// a sentence, the model is never sent the line, and nothing is written; a
// command of the user's named review replaces it.
func TestReviewSlashThroughTheBinary(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: []byte(`{"path":"avg.py","line":5,"text":"Divides by one less than the count."}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "Review the uncommitted changes"}},
		{Text: "Reviewed.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		{Text: "A model turn.", Repeat: true},
	}})
	defer srv.Close()
	home := t.TempDir()
	repo := gitProject(t, map[string]string{"avg.py": avgPy})

	code, stdout, stderr := runBin(t, command(t, srv, home, "-p", "/review", "--project", repo), "")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "no changes to review") {
		t.Fatalf("pilot -p /review with no changes: exit %d, %q, %q", code, stdout, stderr)
	}
	if err := os.WriteFile(filepath.Join(repo, "avg.py"), []byte(avgBug), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "avg.py:5: Divides by one less than the count.\n"
	code, stdout, stderr = runBin(t, command(t, srv, home, "-p", "/review", "--project", repo), "")
	if code != 0 || stdout != want || !strings.Contains(stderr, "1 finding, kept with session") {
		t.Fatalf("pilot -p /review: exit %d, stdout %q\n%s", code, stdout, stderr)
	}

	code, stdout, stderr = runBin(t, command(t, srv, home, "repl", "--project", repo), "/review nowhere\n/review uncommitted\n/exit\n")
	if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stderr, "1 finding, kept with session") ||
		!strings.Contains(stderr, `/review takes branch, uncommitted or session`) {
		t.Fatalf("repl /review: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	for _, r := range srv.ModelRequests() {
		if strings.Contains(r.LastUserText, "/review") {
			t.Errorf("the model was sent the line itself: %q", r.LastUserText)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "avg.py")); string(b) != avgBug {
		t.Errorf("the review changed avg.py: %q", b)
	}

	// A command of the user's named review replaces the built-in one, as in the window.
	if err := os.MkdirAll(filepath.Join(repo, ".claude", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".claude", "commands", "review.md"), []byte("My own review: $ARGUMENTS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runBin(t, command(t, srv, home, "-p", "/review", "--project", repo), "")
	reqs := srv.ModelRequests()
	if code != 0 || !strings.Contains(stdout, "A model turn.") || reqs[len(reqs)-1].LastUserText != "My own review: \n" {
		t.Fatalf("pilot -p /review with a command of the user's: exit %d, %q, last request %q\n%s", code, stdout, reqs[len(reqs)-1].LastUserText, stderr)
	}
}
