package main

import "pilot/backend/wire"

// NewWorktreeSession starts an empty session of the project in a new git
// worktree NAME on the branch pilot/NAME (service.NewWorktreeSession): a
// bad or taken name, a folder outside git, a missing git is an error
// that says what to do.
func (a *App) NewWorktreeSession(projectID int64, name string) (wire.SessionSummary, error) {
	return a.ws().Worktrees.NewSession(a.ctx, projectID, name)
}

// DiscardWorktree removes a worktree session's worktree and branch; the
// session stays as history, marked discarded.
func (a *App) DiscardWorktree(sessionID int64) error {
	return a.ws().Worktrees.Discard(a.ctx, sessionID)
}
