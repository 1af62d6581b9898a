//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// staleness makes each stale call give times never given before.
var staleness atomic.Int64

// stale gives files new times (to the second: git compares seconds),
// their content unchanged, so that git must read them again, through a
// clean filter if one applies. Missing files are left out.
func stale(t *testing.T, files ...string) {
	t.Helper()
	when := time.Now().Add(-time.Duration(staleness.Add(int64(len(files)))) * time.Minute)
	for _, f := range files {
		when = when.Add(-time.Minute)
		if err := os.Chtimes(f, when, when); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// nestedRepo makes dir/sub a repository of its own whose clean filter is
// prog, for every file of it.
func nestedRepo(t *testing.T, dir, prog string) string {
	t.Helper()
	sub := filepath.Join(dir, "sub")
	plainGit(t, dir, "init", "-q", "sub")
	for name, text := range map[string]string{"s.txt": "s\n", ".gitattributes": "* filter=ev\n"} {
		if err := os.WriteFile(filepath.Join(sub, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plainGit(t, sub, "add", "-A")
	plainGit(t, sub, "commit", "-qm", "s")
	plainGit(t, sub, "config", "filter.ev.clean", prog)
	return sub
}

// plantRepository makes the repository at repo run prog from everything
// git reads there (as a cloned repository, or a command before .git was
// read-only, could have it): clean, smudge and process filters for every
// file, an external diff, fsmonitor, a signing program, every hook, and a
// nested repository with its own filter registered as a gitlink. It
// returns the files to make stale before each action.
func plantRepository(t *testing.T, repo, prog string) []string {
	t.Helper()
	sub := nestedRepo(t, repo, prog)
	plainGit(t, repo, "add", "sub")
	plainGit(t, repo, "commit", "-qm", "sub")
	for _, kv := range [][2]string{{"filter.ev.clean", prog}, {"filter.ev.smudge", prog}, {"filter.ev.required", "true"},
		{"diff.external", prog}, {"core.fsmonitor", prog}, {"commit.gpgSign", "true"}, {"gpg.program", prog}} {
		plainGit(t, repo, "config", kv[0], kv[1])
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "info", "attributes"), []byte("* filter=ev\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout", "reference-transaction",
		"post-index-change", "post-merge", "pre-auto-gc"} {
		if err := os.Symlink(prog, filepath.Join(repo, ".git", "hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	return []string{filepath.Join(repo, "notes.txt"), filepath.Join(sub, "s.txt")}
}

// worktreeID is the session id of the project's worktree session.
func (u gitUser) worktreeID(t *testing.T, home, repo string) string {
	t.Helper()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	code, stdout, stderr := runBin(t, u.pilot(t, srv, home, "worktree", "list", "--project", repo, "--json"), "")
	var line wire.WorktreeLine
	if code != 0 || json.Unmarshal([]byte(stdout), &line) != nil || line.SessionID == 0 {
		t.Fatalf("worktree list --json: exit %d, %q (%s)", code, stdout, stderr)
	}
	return strconv.FormatInt(line.SessionID, 10)
}

// (b) A repository planted directly (as if cloned, or planted before the
// fix), then every later Pilot action on it: the next turn's system
// prompt git status under --approve none, `pilot -p --worktree NAME`
// (git worktree add, with smudge filters and post-checkout), `pilot
// worktree merge` (the branch diff, merge-file) and `pilot worktree
// discard --yes` (worktree remove, branch -D): no marker. Plain git
// status runs the plant (the control). On c88f239 each of these ran it.
// (The window's header read and Commit: service's
// TestWindowGitRunsNothingPlanted.)
func TestHeadlessGitPlantedRepository(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, u := range gitUsers() {
		t.Run(u.name, func(t *testing.T) {
			t.Parallel()
			u.check(t)
			home, repo := u.dir(t), gitProjectIn(t, u.dir(t))
			prog, record := markProg(t)
			files := plantRepository(t, repo, prog)
			stale(t, files...)
			plainGit(t, repo, "status", "--short")
			if _, err := os.Stat(record); err != nil {
				t.Fatal("plain git status ran no plant: the control proves nothing")
			}
			os.Remove(record)
			u.own(t, home, repo)

			stale(t, files...)
			_, system := u.turn(t, home, "none", []string{"--project", repo})
			noRun(t, record, "a turn's system prompt git status")
			if !strings.Contains(system, "## ") {
				t.Errorf("the system prompt shows no git status:\n%s", system)
			}

			srv := fakellm.New(editScript())
			defer srv.Close()
			stale(t, files...)
			if code, stdout, stderr := runBin(t, u.pilot(t, srv, home, "-p", "Mark it final", "--project", repo, "--worktree", "fix", "--approve", "edits"), ""); code != 0 {
				t.Fatalf("pilot -p --worktree: exit %d\n%s\n%s", code, stdout, stderr)
			}
			noRun(t, record, "pilot -p --worktree fix")
			id := u.worktreeID(t, home, repo)
			for _, args := range [][]string{{"worktree", "merge", id, "--hunks", "all"}, {"worktree", "discard", id, "--yes"}} {
				stale(t, files...)
				if code, stdout, stderr := runBin(t, u.pilot(t, srv, home, args...), ""); code != 0 {
					t.Fatalf("pilot %v: exit %d\n%s\n%s", args, code, stdout, stderr)
				}
				noRun(t, record, "pilot "+strings.Join(args, " "))
			}
			if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "a final\n" {
				t.Errorf("after the merge notes.txt = %q", b)
			}
		})
	}
}

// (c) Finding 2 in a worktree session: a sandboxed command may make a
// nested repository with a clean filter (nothing can know it ahead) but
// cannot register it in the worktree's index, which is read-only; and
// one registered anyway (here by the test, as a command could before the
// fix) is never looked into by the next turn's git status nor by `pilot
// worktree merge` and discard. Plain git status runs its filter (the
// control). On c88f239 the command registered it, and the prompt's git
// status and the merge's `git diff --raw` ran the filter on the host.
func TestHeadlessGitWorktreeNested(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	u := gitUser{name: "own user"}
	home, repo := u.dir(t), gitProjectIn(t, u.dir(t))
	prog, record := markProg(t)
	results, _ := u.turn(t, home, "edits", []string{"--project", repo, "--worktree", "x"},
		bashCall("edit", "echo more >> notes.txt"),
		bashCall("nested", fmt.Sprintf(`git init -q sub && cd sub && echo s > s.txt && echo '* filter=ev' > .gitattributes && git add -A && git -c user.name=m -c user.email=m@m commit -qm s && git config filter.ev.clean %q`, prog)),
		bashCall("register", "git add sub"))
	for _, id := range []string{"edit", "nested"} {
		if results[id].IsError {
			t.Errorf("%s failed: %q", id, results[id].Content)
		}
	}
	r := results["register"]
	if !r.IsError || !strings.Contains(r.Content, "The repository is read-only to commands of a worktree session") {
		t.Errorf("register: want a failure explained as the read-only repository: %q", r.Content)
	}
	wt := filepath.Join(home, ".config", "pilot", "worktrees", "1", "x")
	if st := plainGit(t, wt, "status", "--porcelain"); strings.Contains(st, "A  sub") {
		t.Fatalf("the nested repository was registered from the sandbox: %q", st)
	}
	plainGit(t, wt, "add", "sub")
	sub := filepath.Join(wt, "sub", "s.txt")
	stale(t, sub)
	plainGit(t, wt, "status", "--short")
	if _, err := os.Stat(record); err != nil {
		t.Fatal("plain git status in the worktree ran no filter: the control proves nothing")
	}
	os.Remove(record)

	id := u.worktreeID(t, home, repo)
	stale(t, sub)
	_, system := u.turn(t, home, "none", []string{"--resume", id})
	noRun(t, record, "the next turn's system prompt git status in the worktree")
	if !strings.Contains(system, "## pilot/x") {
		t.Errorf("the system prompt shows no git status of the worktree:\n%s", system)
	}
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	for _, args := range [][]string{{"worktree", "merge", id, "--hunks", "all"}, {"worktree", "discard", id, "--yes"}} {
		stale(t, sub)
		if code, stdout, stderr := runBin(t, u.pilot(t, srv, home, args...), ""); code != 0 {
			t.Fatalf("pilot %v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		noRun(t, record, "pilot "+strings.Join(args, " "))
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "notes.txt")); string(b) != "a draft\nmore\n" {
		t.Errorf("after the merge notes.txt = %q", b)
	}
}
