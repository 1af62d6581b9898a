package main

import "pilot/backend/wire"

// GitStatus returns the project folder's branch and how many paths have
// uncommitted changes, for the header (Repo false, with Why, outside git).
func (a *App) GitStatus(projectID int64) (wire.GitStatus, error) {
	return a.ws().GitStatus(a.ctx, projectID)
}
