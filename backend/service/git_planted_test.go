package service

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// plantGit makes the repository at proj run prog from everything a
// repository (or a command before .git was read-only to commands) can
// name: clean and smudge filters for every file, an external diff,
// fsmonitor, every hook, a signing program; and registers, in the index
// of wt (its worktree), a nested repository sub whose own clean filter is
// prog (finding 2). It returns the files git must read again for a filter
// to run.
func plantGit(t *testing.T, proj, wt, prog string) []string {
	t.Helper()
	plain := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	sub := filepath.Join(wt, "sub")
	plain(wt, "init", "-q", "sub")
	put(t, filepath.Join(sub, "s.txt"), "s\n")
	put(t, filepath.Join(sub, ".gitattributes"), "* filter=ev\n")
	plain(sub, "add", "-A")
	plain(sub, "commit", "-qm", "s")
	plain(sub, "config", "filter.ev.clean", prog)
	plain(wt, "add", "sub")
	for _, kv := range [][2]string{{"filter.ev.clean", prog}, {"filter.ev.smudge", prog}, {"filter.ev.required", "true"},
		{"diff.external", prog}, {"core.fsmonitor", prog}, {"commit.gpgSign", "true"}, {"gpg.program", prog}} {
		plain(proj, "config", kv[0], kv[1])
	}
	put(t, filepath.Join(proj, ".git", "info", "attributes"), "* filter=ev\n")
	for _, h := range []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout", "reference-transaction", "post-index-change"} {
		if err := os.Symlink(prog, filepath.Join(proj, ".git", "hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	return []string{filepath.Join(proj, "notes.txt"), filepath.Join(wt, "notes.txt"), filepath.Join(sub, "s.txt")}
}

// The window's git, as the window calls it, runs nothing a planted
// repository names: the header's git read of the project folder and of a
// worktree session, the Branch view, the drafted message, a commit of the
// worktree session on its branch, a merge, and a commit of the merge's
// folder session. Plain git status runs the plant (the control); on the
// old code GitStatus of the worktree ran the nested repository's filter,
// and each commit the filters, the hooks and the signing program (issue
// 36, findings 1 and 2).
func TestWindowGitRunsNothingPlanted(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Capitalise two", Repeat: true}}})
	t.Cleanup(srv.Close)
	f := newBranchFixture(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()},
		map[string]string{"notes.txt": twelve})
	ctx := context.Background()
	bin := t.TempDir()
	mark, prog := filepath.Join(bin, "ran"), filepath.Join(bin, "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0 $*\" >> '"+mark+"'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stale := plantGit(t, f.proj, f.wt, prog)
	touches := 0
	touch := func() { // a new time, to the second, each time: git compares seconds
		touches++
		for i, p := range stale {
			when := time.Now().Add(-time.Duration(touches*len(stale)+i) * time.Minute)
			if err := os.Chtimes(p, when, when); err != nil {
				t.Fatal(err)
			}
		}
	}
	touch()
	cmd := exec.Command("git", "status", "--short")
	cmd.Dir = f.wt
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatal("plain git status in the worktree ran no plant: the control proves nothing")
	}
	os.Remove(mark)
	p, err := f.w.Projects.Open(ctx, f.proj)
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(twelve, "two\n", "TWO\n", 1))
	var merged wire.MergeResult
	for _, step := range []struct {
		name string
		run  func() error
	}{
		{"the header's git read of the project folder", func() error {
			st, err := f.w.Git.Status(ctx, p.ID, 0)
			if err == nil && !st.Repo {
				t.Errorf("the header's git read: %+v", st)
			}
			return err
		}},
		{"the header's git read of the worktree session", func() error { _, err := f.w.Git.Status(ctx, p.ID, f.sess); return err }},
		{"the Branch view", func() error { _, err := f.w.Git.Branch(ctx, f.sess); return err }},
		{"the drafted commit message", func() error { _, err := f.w.Git.DraftCommitMessage(ctx, f.sess); return err }},
		{"the commit of the worktree session", func() error { _, err := f.w.Git.Commit(ctx, f.sess, "Capitalise two"); return err }},
		{"the merge", func() error {
			merged, err = f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{{Path: "notes.txt", Hunks: []bool{true}}}})
			return err
		}},
		{"the commit of the merge's folder session", func() error { _, err := f.w.Git.Commit(ctx, merged.SessionID, "Merge pilot/x"); return err }},
	} {
		touch()
		if err := step.run(); err != nil {
			t.Errorf("%s: %v", step.name, err)
		}
		if b, err := os.ReadFile(mark); err == nil {
			t.Fatalf("%s ran the repository's program: %s", step.name, b)
		}
	}
	if got := read(t, filepath.Join(f.proj, "notes.txt")); !strings.Contains(got, "TWO") {
		t.Errorf("the merge did not bring the branch's change: %q", got)
	}
}
