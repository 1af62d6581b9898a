package service

import (
	"context"

	"pilot/backend/git"
	"pilot/backend/wire"
)

// Git is the git of a session's folder: status, its branch, merge and
// commit.
type Git struct{ *core }

// Status is the git state, for the window's header, of the folder
// session sessionID works in (its worktree, on pilot/NAME, or the project
// folder; 0: the project folder; see viewRoot): its branch and how many
// paths have uncommitted changes. A folder outside git, or a machine
// without a usable git, is not an error: Repo is false and Why says so in
// a sentence.
func (gi *Git) Status(ctx context.Context, projectID, sessionID int64) (wire.GitStatus, error) {
	if err := gi.waitStarted(ctx); err != nil {
		return wire.GitStatus{}, err
	}
	dir, err := gi.viewPath(ctx, projectID, sessionID)
	if err != nil {
		return wire.GitStatus{}, err
	}
	g, err := git.Find(ctx)
	if err != nil {
		return wire.GitStatus{Why: err.Error()}, nil
	}
	if _, err := g.Toplevel(ctx, dir); err != nil {
		return wire.GitStatus{Why: err.Error()}, nil
	}
	st, err := g.Status(ctx, dir)
	if err != nil {
		return wire.GitStatus{}, err
	}
	return wire.GitStatus{Repo: true, Branch: st.Branch, Uncommitted: st.Uncommitted}, nil
}
