package service

import (
	"context"

	"pilot/backend/present"
	"pilot/backend/rules"
	"pilot/backend/wire"
)

// Remove removes a permission rule of the project and returns it. The
// error wraps ErrNotFound when the project has no rule id (another
// project's rule is left alone).
func (ru *Rules) Remove(ctx context.Context, projectID, id int64) (wire.Rule, error) {
	r, err := rules.Remove(ctx, ru.store, projectID, id)
	if err != nil {
		return wire.Rule{}, err
	}
	return present.Rule(r), nil
}
