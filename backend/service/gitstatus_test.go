package service

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/store"
	"pilot/backend/wire"
)

func TestGitStatusOfTheProjectFolder(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	ctx := context.Background()
	w := newWorkspace(t, nil)

	plain, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := w.Git.Status(ctx, plain.ID, 0)
	if err != nil || st.Repo || !strings.Contains(st.Why, "git init") {
		t.Fatalf("a folder outside git: %+v, %v; want Repo false and a sentence naming git init", st, err)
	}

	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "first")
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = w.Git.Status(ctx, p.ID, 0); err != nil || st != (wire.GitStatus{Repo: true, Branch: "main"}) {
		t.Fatalf("a clean repository: %+v, %v", st, err)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if st, err = w.Git.Status(ctx, p.ID, 0); err != nil || st != (wire.GitStatus{Repo: true, Branch: "main", Uncommitted: 2}) {
		t.Fatalf("one file changed, one new: %+v, %v; want 2 uncommitted on main", st, err)
	}
	if _, err := w.Git.Status(ctx, 9999, 0); err == nil {
		t.Fatal("an unknown project gave no error")
	}
}

// A notification names its session even before the session has a title,
// and names a worktree session's branch.
func TestSessionTitleNamesEverySession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorkspace(t, nil)
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	untitled, err := w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "Fix the parser",
		Worktree: store.Worktree{Path: t.TempDir(), Branch: "pilot/parser", Base: "abc123"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   int64
		want string
	}{
		{untitled.ID, "Untitled session"},
		{wt.ID, "Fix the parser (pilot/parser)"},
		{9999, ""},
	} {
		if got := w.Sessions.Title(ctx, tc.id); got != tc.want {
			t.Errorf("SessionTitle(%d) = %q, want %q", tc.id, got, tc.want)
		}
	}
}
