package service

import (
	"context"
	"fmt"
	"os"

	"pilot/backend/branch"
	"pilot/backend/git"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// A worktree session's branch is reviewed and merged by backend/branch,
// against the commit it was made from (Worktree.Base).

// branchOf is a worktree session with its project and git.
type branchOf struct {
	sess store.Session
	proj store.Project
	git  git.Git
}

// worktreeSession loads a session that works in its own worktree, or says
// why it has no branch.
func (gi *Git) worktreeSession(ctx context.Context, sessionID int64) (branchOf, error) {
	if err := gi.waitStarted(ctx); err != nil {
		return branchOf{}, err
	}
	sess, err := gi.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return branchOf{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	if sess.Worktree.Path == "" {
		return branchOf{}, fmt.Errorf("session %d works in the project folder, not in a worktree, so it has no branch: its Changes view shows what it changed: %w", sessionID, ErrInvalid)
	}
	proj, err := gi.project(ctx, sess.ProjectID)
	if err != nil {
		return branchOf{}, err
	}
	if _, err := os.Stat(sess.Worktree.Path); err != nil {
		return branchOf{}, fmt.Errorf("the worktree of session %d (%s) is gone, so its branch %s cannot be read: %w", sessionID, sess.Worktree.Path, sess.Worktree.Branch, ErrInvalid)
	}
	g, err := git.Find(ctx)
	if err != nil {
		return branchOf{}, err
	}
	return branchOf{sess: sess, proj: proj, git: g}, nil
}

// branch is the session's branch, for review and merge.
func (b branchOf) branch() branch.Branch {
	return branch.Branch{Git: b.git, Name: b.sess.Worktree.Branch, Base: b.sess.Worktree.Base, Worktree: b.sess.Worktree.Path}
}

// Branch is a worktree session's branch against its base, for review.
func (gi *Git) Branch(ctx context.Context, sessionID int64) (wire.BranchView, error) {
	b, err := gi.worktreeSession(ctx, sessionID)
	if err != nil {
		return wire.BranchView{}, err
	}
	v, err := b.branch().Review(ctx)
	if err != nil {
		return wire.BranchView{}, err
	}
	v.SessionID = sessionID
	return v, nil
}
