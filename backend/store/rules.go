package store

import (
	"context"
	"database/sql"
	"time"
)

// Effect is what a permission rule does.
type Effect string

const (
	Allow Effect = "allow"
	Deny  Effect = "deny"
)

// Rule is a per-project permission rule: calls of Tool whose argument
// matches Pattern are allowed or denied without asking. How a pattern
// matches is the permission package's business; the store keeps it as text.
type Rule struct {
	ID        int64     `json:"id"`
	ProjectID int64     `json:"projectId"`
	Tool      string    `json:"tool"`
	Pattern   string    `json:"pattern"`
	Effect    Effect    `json:"effect"`
	CreatedAt time.Time `json:"createdAt"`
}

const ruleCols = `id, project_id, tool, pattern, effect, created_at`

func scanRule(row rowScanner) (Rule, error) {
	var r Rule
	var created int64
	if err := row.Scan(&r.ID, &r.ProjectID, &r.Tool, &r.Pattern, &r.Effect, &created); err != nil {
		return Rule{}, err
	}
	r.CreatedAt = fromMillis(created)
	return r, nil
}

// Add stores a rule; adding one that exists returns the existing rule.
func (s *Rules) Add(ctx context.Context, r Rule) (Rule, error) {
	var out Rule
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = scanRule(tx.QueryRowContext(ctx, `
			INSERT INTO permission_rules (project_id, tool, pattern, effect, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (project_id, tool, pattern, effect) DO UPDATE SET tool = excluded.tool
			RETURNING `+ruleCols,
			r.ProjectID, r.Tool, r.Pattern, string(r.Effect), millis(s.now())))
		return err
	})
	return out, constraint(err)
}

// List lists a project's rules, oldest first.
func (s *Rules) List(ctx context.Context, projectID int64) ([]Rule, error) {
	return queryAll(ctx, s.r, scanRule, `SELECT `+ruleCols+` FROM permission_rules WHERE project_id = ? ORDER BY id`, projectID)
}

// Delete removes a rule.
func (s *Rules) Delete(ctx context.Context, id int64) error {
	return s.execRow(ctx, "rule", id, `DELETE FROM permission_rules WHERE id = ?`)
}
