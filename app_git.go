package main

import "pilot/backend/wire"

// GitStatus returns the branch and how many paths have uncommitted
// changes of the folder the session works in (its worktree, or the
// project folder; 0: the project folder), for the header (Repo false,
// with Why, outside git).
func (a *App) GitStatus(projectID, sessionID int64) (wire.GitStatus, error) {
	return a.ws().Git.Status(a.ctx, projectID, sessionID)
}
