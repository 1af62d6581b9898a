package service

import (
	"context"
	"errors"
	"fmt"

	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// New starts an empty session in the project with the provider,
// model, approval mode and budget in force.
func (se *Sessions) New(ctx context.Context, projectID int64) (wire.SessionSummary, error) {
	return se.Start(ctx, projectID, SessionStart{})
}

// Start starts an empty session in the project as o says, makes it
// the active one, and deletes the empty sessions this service created
// before (the user left them). A session nobody writes in is deleted when
// the user leaves it or the service closes.
func (se *Sessions) Start(ctx context.Context, projectID int64, o SessionStart) (wire.SessionSummary, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	p, err := se.project(ctx, projectID)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	// The face's pin, then the session's start over it.
	r, err := se.resolvePinned(p, func(pn pin) [2]pin { return [2]pin{pn, {o.Provider, o.Model}} })
	if err != nil {
		return wire.SessionSummary{}, err
	}
	mode := r.ApprovalMode.Value
	if o.Mode != "" {
		mode = string(o.Mode)
	}
	var wt store.Worktree
	if o.Worktree != "" {
		if wt, err = se.svc.Worktrees.add(ctx, p, o.Worktree); err != nil {
			return wire.SessionSummary{}, err
		}
	}
	se.dropEmpty(ctx, 0)
	s, err := se.store.Sessions.Create(ctx, store.NewSession{
		ProjectID: projectID,
		Provider:  r.Provider.Value, Model: r.Model.Value,
		ApprovalMode: mode, BudgetUSD: r.BudgetUSD,
		Worktree: wt,
	})
	if err != nil {
		if wt.Path != "" {
			_ = se.svc.Worktrees.remove(ctx, store.Session{ProjectID: projectID, Worktree: wt})
		}
		return wire.SessionSummary{}, err
	}
	se.created(s.ID)
	se.svc.Ledger.setActive(s.ID)
	return present.Session(s), nil
}

// Resume returns a session to continue, with its project, and
// makes it the active one. An unknown id is ErrNoSession. (The empty
// sessions this service created go when the next one starts or the
// service closes.)
func (se *Sessions) Resume(ctx context.Context, id int64) (wire.SessionSummary, wire.Project, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	s, err := se.store.Sessions.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.SessionSummary{}, wire.Project{}, fmt.Errorf("session %d: %w", id, ErrNoSession)
	}
	if err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	p, err := se.project(ctx, s.ProjectID)
	if err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	se.svc.Ledger.setActive(id)
	return present.Session(s), present.Project(p), nil
}

// Todos is a session's task list as its last todo_write left it.
func (se *Sessions) Todos(ctx context.Context, id int64) ([]wire.TodoItem, error) {
	if err := se.waitStarted(ctx); err != nil {
		return nil, err
	}
	tr, err := se.store.Sessions.Transcript(ctx, id)
	if err != nil {
		return nil, err
	}
	return present.Todos(tr.Todos()), nil
}

// SetModel switches a session to model (its provider stays); it
// replaces the model the face pinned, for this and later sessions.
func (se *Sessions) SetModel(ctx context.Context, id int64, model string) (wire.SessionSummary, error) {
	if err := se.store.Sessions.SetModel(ctx, id, model); err != nil {
		return wire.SessionSummary{}, err
	}
	se.mu.Lock()
	se.pin.model = ""
	se.mu.Unlock()
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return present.Session(s), nil
}
