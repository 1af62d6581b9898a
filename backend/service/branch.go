package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"pilot/backend/diff"
	"pilot/backend/gitwt"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// A worktree session's branch is reviewed against the commit it was made
// from (Worktree.Base): every file of the worktree that differs from it,
// committed on the branch or not, untracked files included and ignored
// ones not, cut into hunks by backend/diff like a proposed change. Hunks
// are numbered across the files from 1, in path order: the numbers of
// `pilot worktree merge --hunks`.

// branchOf is a worktree session with its project and git.
type branchOf struct {
	sess store.Session
	proj store.Project
	git  gitwt.Git
}

// worktreeSession loads a session that works in its own worktree, or says
// why it has no branch.
func (w *Service) worktreeSession(ctx context.Context, sessionID int64) (branchOf, error) {
	if err := w.waitStarted(ctx); err != nil {
		return branchOf{}, err
	}
	sess, err := w.store.Session(ctx, sessionID)
	if err != nil {
		return branchOf{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	if sess.Worktree.Path == "" {
		return branchOf{}, fmt.Errorf("session %d works in the project folder, not in a worktree, so it has no branch: its Changes view shows what it changed: %w", sessionID, ErrInvalid)
	}
	proj, err := w.project(ctx, sess.ProjectID)
	if err != nil {
		return branchOf{}, err
	}
	if _, err := os.Stat(sess.Worktree.Path); err != nil {
		return branchOf{}, fmt.Errorf("the worktree of session %d (%s) is gone, so its branch %s cannot be read: %w", sessionID, sess.Worktree.Path, sess.Worktree.Branch, ErrInvalid)
	}
	g, err := gitwt.Find(ctx)
	if err != nil {
		return branchOf{}, err
	}
	return branchOf{sess: sess, proj: proj, git: g}, nil
}

// branchFile is one file of a branch with its hunks.
type branchFile struct {
	gitwt.BranchFile
	d     *diff.Diff
	first int // the number of its first hunk
}

// files diffs the branch: its files with their hunks, numbered.
func (b branchOf) files(ctx context.Context) ([]branchFile, error) {
	changed, err := b.git.BranchChanges(ctx, b.sess.Worktree.Path, b.sess.Worktree.Base)
	if err != nil {
		return nil, fmt.Errorf("reading branch %s against its base: %w", b.sess.Worktree.Branch, err)
	}
	out := make([]branchFile, len(changed))
	n := 1
	for i, f := range changed {
		out[i] = branchFile{BranchFile: f, first: n}
		if !f.Binary {
			out[i].d = diff.Compute(string(f.Base), string(f.Now))
			n += out[i].d.Len()
		}
	}
	return out, nil
}

// view is the file in the review's form, its hunks numbered across files.
func (f branchFile) view() wire.FileChange {
	fc := wire.FileChange{Path: f.Path, IsNew: !f.InBase, NewText: string(f.Now), Emptied: !f.Exists || len(f.Now) == 0, Hunks: []wire.Hunk{}}
	if f.d != nil {
		fc.Hunks = f.d.Hunks()
		for i := range fc.Hunks {
			fc.Hunks[i].Index = f.first + i
		}
	}
	return fc
}

// GetBranch is a worktree session's branch against its base, for review.
func (w *Service) GetBranch(ctx context.Context, sessionID int64) (wire.BranchView, error) {
	b, err := w.worktreeSession(ctx, sessionID)
	if err != nil {
		return wire.BranchView{}, err
	}
	files, err := b.files(ctx)
	if err != nil {
		return wire.BranchView{}, err
	}
	v := wire.BranchView{SessionID: sessionID, Branch: b.sess.Worktree.Branch, Base: abbrev(b.sess.Worktree.Base),
		Worktree: b.sess.Worktree.Path, Files: make([]wire.FileChange, len(files))}
	for i, f := range files {
		v.Files[i] = f.view()
	}
	return v, nil
}

// abbrev shortens a commit id for display.
func abbrev(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	ea, err1 := filepath.EvalSymlinks(a)
	eb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ea == eb
}
