package service

import (
	"context"

	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/rules"
	"pilot/backend/wire"
)

// Rules are the approval rules: Pilot's own and those imported from
// settings.json files.
type Rules struct{ *core }

// List returns the project's permission rules; a rule that can never
// match carries the sentence that says why.
func (ru *Rules) List(ctx context.Context, projectID int64) ([]wire.Rule, error) {
	p, err := ru.project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	ls, err := rules.List(ctx, ru.store, p.ID, rules.Known(ru.home, p.Path))
	if err != nil {
		return nil, err
	}
	out := make([]wire.Rule, len(ls))
	for i, l := range ls {
		out[i] = present.Rule(l.Rule)
		out[i].Invalid = l.Invalid
	}
	return out, nil
}

// Add validates a permission rule and stores it for the project. A
// rule that could never match (a bad pattern, an unknown tool, an empty
// pattern) is refused with one sentence that names the problem, and
// nothing is stored.
func (ru *Rules) Add(ctx context.Context, projectID int64, tool, pattern, effect string) (wire.Rule, error) {
	p, err := ru.project(ctx, projectID)
	if err != nil {
		return wire.Rule{}, err
	}
	r, err := rules.Add(ctx, ru.store, p.ID, permission.Rule{Tool: tool, Pattern: pattern, Effect: permission.Effect(effect)}, rules.Known(ru.home, p.Path))
	if err != nil {
		return wire.Rule{}, err
	}
	return present.Rule(r), nil
}
