package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pilot/backend/git"
	"pilot/backend/internal/fakellm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// twelve is a file whose lines 2 and 11 are far enough apart to be two
// hunks.
const twelve = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"

// branchFixture is a project in git with a worktree session on branch
// pilot/x made from its HEAD, as wtsession's NewWorktreeSession makes it.
type branchFixture struct {
	w    *Service
	g    git.Git
	proj string // the project folder
	wt   string // the worktree
	sess int64
}

// gitIn runs git in dir or fails the test.
func gitIn(t testing.TB, g git.Git, dir string, args ...string) string {
	t.Helper()
	out, err := g.Run(context.Background(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// newRepoWithWorktree makes the project folder (a repository holding
// files, committed) and a worktree of it on pilot/x; it returns git, the
// folder, the worktree and the base commit.
func newRepoWithWorktree(t testing.TB, files map[string]string) (git.Git, string, string, string) {
	t.Helper()
	g, err := git.Find(context.Background())
	if err != nil {
		t.Skip(err)
	}
	proj := t.TempDir()
	gitIn(t, g, proj, "init", "-q")
	gitIn(t, g, proj, "config", "user.email", "t@example.com")
	gitIn(t, g, proj, "config", "user.name", "T")
	for p, c := range files {
		put(t, filepath.Join(proj, p), c)
	}
	gitIn(t, g, proj, "add", "-A")
	gitIn(t, g, proj, "commit", "-q", "--allow-empty", "-m", "base")
	base := gitIn(t, g, proj, "rev-parse", "HEAD")
	wt := filepath.Join(t.TempDir(), "x")
	gitIn(t, g, proj, "worktree", "add", "-q", "-b", "pilot/x", wt, base)
	return g, proj, wt, base
}

// worktreeSessionIn records a worktree session of the project at proj.
func worktreeSessionIn(t testing.TB, w *Service, proj, wt, base string) int64 {
	t.Helper()
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, proj)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "x",
		Worktree: store.Worktree{Path: wt, Branch: "pilot/x", Base: base}})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func newBranchFixture(t *testing.T, env map[string]string, files map[string]string) branchFixture {
	t.Helper()
	g, proj, wt, base := newRepoWithWorktree(t, files)
	w := newWorkspace(t, env)
	return branchFixture{w: w, g: g, proj: proj, wt: wt, sess: worktreeSessionIn(t, w, proj, wt, base)}
}

func put(t testing.TB, p, c string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestMergeBranchOneOfTwoHunks: the branch changes two far apart lines of
// notes.txt (one committed on the branch, one not), creates a file and
// deletes one; approving the first hunk of notes.txt only merges exactly
// that hunk, the new file and the deletion, as one change of a project
// session that undoes it whole.
func TestMergeBranchOneOfTwoHunks(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"notes.txt": twelve, "gone.txt": "bye\n"})
	ctx := context.Background()
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(twelve, "two\n", "TWO\n", 1))
	gitIn(t, f.g, f.wt, "commit", "-q", "-am", "two on the branch")
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(strings.Replace(twelve, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1))
	put(t, filepath.Join(f.wt, "sub/new.txt"), "new\n")
	if err := os.Remove(filepath.Join(f.wt, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	v, err := f.w.Git.Branch(ctx, f.sess)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fc := range v.Files {
		for _, h := range fc.Hunks {
			got = append(got, fc.Path+"#"+itoa(h.Index))
		}
	}
	if strings.Join(got, " ") != "gone.txt#1 notes.txt#2 notes.txt#3 sub/new.txt#4" || v.Branch != "pilot/x" || v.Worktree != f.wt {
		t.Fatalf("branch view = %+v; hunks %v", v, got)
	}
	res, err := f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{
		{Path: "notes.txt", Hunks: []bool{true, false}},
		{Path: "sub/new.txt", Hunks: []bool{true}},
		{Path: "gone.txt", Hunks: []bool{true}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 0 || len(res.Merged) != 3 || res.SessionID == 0 {
		t.Fatalf("merge = %+v", res)
	}
	if got := read(t, filepath.Join(f.proj, "notes.txt")); got != strings.Replace(twelve, "two\n", "TWO\n", 1) {
		t.Fatalf("notes.txt after merging hunk 1 of 2 = %q", got)
	}
	if read(t, filepath.Join(f.proj, "sub/new.txt")) != "new\n" || exists(filepath.Join(f.proj, "gone.txt")) {
		t.Fatal("the new file was not created or the deleted one not deleted")
	}
	ms, err := f.w.core.store.Sessions.Get(ctx, res.SessionID)
	if err != nil || ms.Title != "Merge of branch pilot/x" || ms.Worktree.Path != "" {
		t.Fatalf("merge session = %+v, %v", ms, err)
	}
	l, err := f.w.Ledger.Get(ctx, res.SessionID)
	if err != nil || len(l.Checkpoints) != 1 || len(l.Files) != 3 {
		t.Fatalf("the merge session's ledger = %+v, %v", l, err)
	}
	r, err := f.w.Ledger.RevertCheckpoint(ctx, l.Checkpoints[0].ID, wire.RestoreInput{})
	if err != nil || len(r.Conflicts) != 0 {
		t.Fatalf("undoing the merge = %+v, %v", r, err)
	}
	if read(t, filepath.Join(f.proj, "notes.txt")) != twelve || exists(filepath.Join(f.proj, "sub/new.txt")) || read(t, filepath.Join(f.proj, "gone.txt")) != "bye\n" {
		t.Fatal("undoing the merge did not restore the project folder")
	}
	// A second merge goes to the same session.
	res2, err := f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{{Path: "sub/new.txt", Hunks: []bool{true}}}})
	if err != nil || res2.SessionID != res.SessionID {
		t.Fatalf("second merge = %+v, %v; want session %d again", res2, err, res.SessionID)
	}
	if empty, _ := f.w.core.store.Sessions.Empty(ctx, 0, time.Time{}, true); slices.Contains(empty, res.SessionID) {
		t.Fatal("the merge session, which holds the merge, counts as empty and would be deleted")
	}
}

// TestMergeBranchConflicts: a file the user changed and did not commit is
// refused without force and left exactly as it is (and nothing else is
// written); with force it is merged where the hunks still apply, and left
// alone where they do not. A file changed by a commit since the base is
// merged three-way without force.
func TestMergeBranchConflicts(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"notes.txt": twelve, "other.txt": twelve, "both.txt": twelve, "committed.txt": twelve})
	ctx := context.Background()
	for _, p := range []string{"notes.txt", "other.txt", "both.txt", "committed.txt"} {
		put(t, filepath.Join(f.wt, p), strings.Replace(twelve, "two\n", "TWO\n", 1))
	}
	put(t, filepath.Join(f.proj, "committed.txt"), strings.Replace(twelve, "ten\n", "TEN\n", 1))
	gitIn(t, f.g, f.proj, "commit", "-q", "-am", "the user's commit after the branch was made")
	mine := strings.Replace(twelve, "eleven\n", "my eleven\n", 1)
	put(t, filepath.Join(f.proj, "notes.txt"), mine)
	overlapping := strings.Replace(twelve, "two\n", "my two\n", 1)
	put(t, filepath.Join(f.proj, "both.txt"), overlapping)
	all := wire.BranchMerge{Files: []wire.FileDecision{
		{Path: "notes.txt", Hunks: []bool{true}}, {Path: "other.txt", Hunks: []bool{true}},
		{Path: "both.txt", Hunks: []bool{true}}, {Path: "committed.txt", Hunks: []bool{true}},
	}}
	res, err := f.w.Git.Merge(ctx, f.sess, all)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Merged) != 0 || len(res.Conflicts) != 2 || res.SessionID != 0 {
		t.Fatalf("merge over uncommitted changes = %+v; want both refused and nothing merged", res)
	}
	for _, c := range res.Conflicts {
		if !strings.Contains(c.Why, "have not committed") || !strings.Contains(c.Why, "force") {
			t.Fatalf("conflict %+v: want the sentence saying it is uncommitted and what to do", c)
		}
	}
	if read(t, filepath.Join(f.proj, "notes.txt")) != mine || read(t, filepath.Join(f.proj, "both.txt")) != overlapping || read(t, filepath.Join(f.proj, "other.txt")) != twelve {
		t.Fatal("a refused merge wrote in the project folder")
	}
	all.Force = true
	res, err = f.w.Git.Merge(ctx, f.sess, all)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Merged, " ") != "notes.txt other.txt committed.txt" || len(res.Conflicts) != 1 || res.Conflicts[0].Path != "both.txt" {
		t.Fatalf("forced merge = %+v", res)
	}
	if got := read(t, filepath.Join(f.proj, "notes.txt")); got != strings.Replace(mine, "two\n", "TWO\n", 1) {
		t.Fatalf("forced notes.txt = %q: want the user's line kept and the branch's merged", got)
	}
	if got := read(t, filepath.Join(f.proj, "committed.txt")); got != strings.Replace(strings.Replace(twelve, "ten\n", "TEN\n", 1), "two\n", "TWO\n", 1) {
		t.Fatalf("committed.txt = %q: want the user's commit and the branch's change", got)
	}
	if read(t, filepath.Join(f.proj, "both.txt")) != overlapping {
		t.Fatal("a forced merge overwrote the user's change where the hunk no longer applies")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestBranchBadInput(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"a.txt": "a\n"})
	ctx := context.Background()
	put(t, filepath.Join(f.wt, "a.txt"), "b\n")
	p, err := f.w.core.store.Projects.Touch(ctx, f.proj)
	if err != nil {
		t.Fatal(err)
	}
	folder, err := f.w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"a folder session has no branch", func() error { _, err := f.w.Git.Branch(ctx, folder.ID); return err }, "not in a worktree"},
		{"a file not on the branch", func() error {
			_, err := f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{{Path: "nope.txt", Hunks: []bool{true}}}})
			return err
		}, "not a file"},
		{"too many decisions", func() error {
			_, err := f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{{Path: "a.txt", Hunks: []bool{true, true}}}})
			return err
		}, "has 1 hunks"},
		{"an empty commit message", func() error { _, err := f.w.Git.Commit(ctx, f.sess, "  "); return err }, "needs a message"},
	} {
		err := tc.call()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrInvalid saying %q", tc.name, err, tc.want)
		}
	}
	if read(t, filepath.Join(f.proj, "a.txt")) != "a\n" {
		t.Fatal("bad input wrote in the project folder")
	}
}

// TestCommitSessionAndDraft: the session's model drafts the message from
// the branch's diff; committing a worktree session commits everything in
// its worktree on its branch; committing a folder session (the merge's)
// commits only the files it changed.
func TestCommitSessionAndDraft(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "```\nCapitalise two in notes\n\nThe branch shouts.\n```"}}})
	t.Cleanup(srv.Close)
	f := newBranchFixture(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()},
		map[string]string{"notes.txt": twelve, "mine.txt": "mine\n"})
	ctx := context.Background()
	put(t, filepath.Join(f.wt, "notes.txt"), strings.Replace(twelve, "two\n", "TWO\n", 1))
	msg, err := f.w.Git.DraftCommitMessage(ctx, f.sess)
	if err != nil || msg != "Capitalise two in notes\n\nThe branch shouts." {
		t.Fatalf("drafted %q, %v", msg, err)
	}
	if reqs := srv.ModelRequests(); len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1].LastUserText, "+TWO") {
		t.Fatalf("the model was not shown the branch's diff: %v", reqs)
	}
	c, err := f.w.Git.Commit(ctx, f.sess, msg)
	if err != nil || c.Commit == "" || strings.Join(c.Files, " ") != "notes.txt" {
		t.Fatalf("commit on the branch = %+v, %v", c, err)
	}
	if got := gitIn(t, f.g, f.wt, "log", "-1", "--format=%s"); got != "Capitalise two in notes" {
		t.Fatalf("the branch's last commit is %q", got)
	}
	res, err := f.w.Git.Merge(ctx, f.sess, wire.BranchMerge{Files: []wire.FileDecision{{Path: "notes.txt", Hunks: []bool{true}}}})
	if err != nil || len(res.Merged) != 1 {
		t.Fatalf("merge = %+v, %v", res, err)
	}
	put(t, filepath.Join(f.proj, "mine.txt"), "the user's own work\n")
	c, err = f.w.Git.Commit(ctx, res.SessionID, "Merge pilot/x")
	if err != nil || strings.Join(c.Files, " ") != "notes.txt" {
		t.Fatalf("commit of the merge session = %+v, %v", c, err)
	}
	if st := gitIn(t, f.g, f.proj, "status", "--porcelain"); st != "M mine.txt" {
		t.Fatalf("after the commit, git status = %q: want only the user's own file left", st)
	}
}

func TestDraftCommitMessageWithoutProvider(t *testing.T) {
	t.Parallel()
	f := newBranchFixture(t, nil, map[string]string{"a.txt": "a\n"})
	put(t, filepath.Join(f.wt, "a.txt"), "b\n")
	_, err := f.w.Git.DraftCommitMessage(context.Background(), f.sess)
	if err == nil || !strings.Contains(err.Error(), "no model can draft the commit message, so write it yourself: Anthropic needs an API key") {
		t.Fatalf("drafting without a provider: %v", err)
	}
}

// BenchmarkGetBranch200 reads a branch of 200 changed files (two hunks
// each) for review.
func BenchmarkGetBranch200(b *testing.B) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = twelve
	}
	_, proj, wt, base := newRepoWithWorktree(b, files)
	for i := range 200 {
		put(b, filepath.Join(wt, fmt.Sprintf("f%03d.txt", i)), strings.Replace(strings.Replace(twelve, "two\n", "TWO\n", 1), "eleven\n", "ELEVEN\n", 1))
	}
	w := openAt(b, b.TempDir(), nil)
	defer w.Close()
	id := worktreeSessionIn(b, w, proj, wt, base)
	ctx := context.Background()
	for b.Loop() {
		v, err := w.Git.Branch(ctx, id)
		if err != nil || len(v.Files) != 200 {
			b.Fatal(len(v.Files), err)
		}
	}
}

// TestDraftCommitMessageCancelled: a model that never answers does not
// hold the draft: cancelling it returns at once, saying so.
func TestDraftCommitMessageCancelled(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "never sent", Fault: &fakellm.Fault{StallAfterEvents: 1}}}})
	t.Cleanup(srv.Close)
	f := newBranchFixture(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()}, map[string]string{"a.txt": "a\n"})
	put(t, filepath.Join(f.wt, "a.txt"), "b\n")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := f.w.Git.DraftCommitMessage(ctx, f.sess); done <- err }()
	for len(srv.ModelRequests()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("the draft ended before the model was asked: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("a cancelled draft: %v", err)
	}
}
