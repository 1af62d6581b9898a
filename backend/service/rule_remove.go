package service

import (
	"context"

	"pilot/backend/present"
	"pilot/backend/rules"
	"pilot/backend/wire"
)

// RemoveRule removes a permission rule of the project and returns it. The
// error wraps ErrNotFound when the project has no rule id (another
// project's rule is left alone).
func (w *Service) RemoveRule(ctx context.Context, projectID, id int64) (wire.Rule, error) {
	r, err := rules.Remove(ctx, w.store, projectID, id)
	if err != nil {
		return wire.Rule{}, err
	}
	return present.Rule(r), nil
}
