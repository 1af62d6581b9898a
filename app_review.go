package main

import "pilot/backend/wire"

// RunReview is /review: a read-only helper reviews the session's branch
// (a worktree session) or its project's uncommitted changes ("" picks),
// and the findings come back stored with the session.
//
//wiregen:param scope ReviewScope
func (a *App) RunReview(sessionID int64, scope string) (wire.ReviewResult, error) {
	return a.ws().Reviews.Run(a.ctx, sessionID, wire.ReviewScope(scope))
}

// ReviewFindings lists a session's findings of /review, oldest first.
func (a *App) ReviewFindings(sessionID int64) ([]wire.ReviewFinding, error) {
	return a.ws().Reviews.Findings(a.ctx, sessionID)
}

// DismissFinding marks a finding dismissed.
func (a *App) DismissFinding(id int64) (wire.ReviewFinding, error) {
	return a.ws().Reviews.Dismiss(a.ctx, id)
}

// FixFinding asks the session's agent to fix a finding, in a normal turn
// whose changes are reviewed as any are.
func (a *App) FixFinding(id int64) (wire.ReviewFinding, error) {
	return a.ws().Reviews.Fix(a.ctx, id)
}
