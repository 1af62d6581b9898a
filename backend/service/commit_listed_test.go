package service

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/projectroot"
	"pilot/backend/store"
)

// TestCommitSessionLeavesListedFiles: a folder session's command changed a
// file of the project, an ignored file and a hook in the project's .git;
// the ledger lists all three, and committing the session commits only the
// project's file (git would refuse the others: one is ignored, one is in
// .git), leaving the ignored file and the hook as they are.
func TestCommitSessionLeavesListedFiles(t *testing.T) {
	t.Parallel()
	g, proj, _, _ := newRepoWithWorktree(t, map[string]string{"a.txt": "a\n", ".gitignore": "*.log\n"})
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, proj)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := w.core.store.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "folder"})
	if err != nil {
		t.Fatal(err)
	}
	root, err := projectroot.New(proj)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cmd, err := w.core.ledger.BeforeCommand(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(proj, "a.txt"), "b\n")
	put(t, filepath.Join(proj, "build.log"), "log\n")
	put(t, filepath.Join(proj, ".git", "hooks", "pre-commit"), "#!/bin/sh\n")
	if _, err := cmd.Finish(ctx, sess.ID, 0, "$ make"); err != nil {
		t.Fatal(err)
	}
	v, err := w.Ledger.Get(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, f := range v.Files {
		if f.Listed {
			listed = append(listed, f.Path)
		}
	}
	if strings.Join(listed, " ") != ".git/hooks/pre-commit build.log" || len(v.Files) != 3 {
		t.Fatalf("the ledger lists %+v", v.Files)
	}
	c, err := w.Git.Commit(ctx, sess.ID, "Change a")
	if err != nil || strings.Join(c.Files, " ") != "a.txt" {
		t.Fatalf("commit = %+v, %v; want a.txt only", c, err)
	}
	if st := gitIn(t, g, proj, "status", "--porcelain", "--ignored"); st != "!! build.log" {
		t.Errorf("after the commit, git status = %q: want only the ignored log left", st)
	}
}
