package workspace

import (
	"context"
	"fmt"

	"pilot/backend/events"
	"pilot/backend/store"
	"pilot/backend/view"
)

// ListRules returns the project's permission rules.
func (w *Workspace) ListRules(ctx context.Context, projectID int64) ([]events.Rule, error) {
	rs, err := w.store.Rules(ctx, projectID)
	if err != nil {
		return nil, err
	}
	out := make([]events.Rule, len(rs))
	for i, r := range rs {
		out[i] = view.Rule(r)
	}
	return out, nil
}

// AddRule stores a permission rule for the project.
func (w *Workspace) AddRule(ctx context.Context, projectID int64, tool, pattern, effect string) (events.Rule, error) {
	e := store.Effect(effect)
	if e != store.Allow && e != store.Deny {
		return events.Rule{}, fmt.Errorf("a rule either allows or denies; got %q", effect)
	}
	r, err := w.store.AddRule(ctx, store.Rule{ProjectID: projectID, Tool: tool, Pattern: pattern, Effect: e})
	if err != nil {
		return events.Rule{}, err
	}
	return view.Rule(r), nil
}

// DeleteRule removes a permission rule.
func (w *Workspace) DeleteRule(ctx context.Context, id int64) error {
	return w.store.DeleteRule(ctx, id)
}
