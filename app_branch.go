package main

import "pilot/backend/wire"

// GetBranch is a worktree session's branch against the commit it was made
// from: its files and hunks, numbered across files from 1.
func (a *App) GetBranch(sessionID int64) (wire.BranchView, error) {
	return a.ws().Git.Branch(a.ctx, sessionID)
}

// MergeBranch brings the approved hunks of a worktree session's branch
// into the project folder, as one undoable change.
func (a *App) MergeBranch(sessionID int64, m wire.BranchMerge) (wire.MergeResult, error) {
	return a.ws().Git.Merge(a.ctx, sessionID, m)
}

// DraftCommitMessage asks the session's model for a commit message of
// what the session changed.
func (a *App) DraftCommitMessage(sessionID int64) (string, error) {
	return a.ws().Git.DraftCommitMessage(a.ctx, sessionID)
}

// CommitSession commits what a session changed: a worktree session's
// whole worktree on its branch, or the files a folder session changed.
func (a *App) CommitSession(sessionID int64, message string) (wire.CommitResult, error) {
	return a.ws().Git.Commit(a.ctx, sessionID, message)
}
