package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// HunkDecision is the user's answer on one hunk.
type HunkDecision string

const (
	HunkPending  HunkDecision = "pending"
	HunkApproved HunkDecision = "approved"
	HunkRejected HunkDecision = "rejected"
)

// Hunk is one hunk of a proposed change, in unified diff form.
type Hunk struct {
	Header   string       `json:"header"` // "@@ -12,4 +12,6 @@"
	Text     string       `json:"text"`   // the hunk's lines with their ' ', '-', '+' prefixes
	Decision HunkDecision `json:"decision"`
}

// Change is a file change a tool proposed, and what became of it.
type Change struct {
	ID         int64  `json:"id"`
	ToolCallID int64  `json:"toolCallId"`
	Path       string `json:"path"`    // project-relative, '/'-separated
	OldHash    string `json:"oldHash"` // "" when the file did not exist
	NewHash    string `json:"newHash"` // "" when the change deletes the file
	Hunks      []Hunk `json:"hunks"`
	// UserEdited is the text the user wrote over the proposal; nil if none.
	UserEdited *string   `json:"userEdited,omitempty"`
	Applied    bool      `json:"applied"`
	CreatedAt  time.Time `json:"createdAt"`
}

const changeCols = `id, tool_call_id, path, old_hash, new_hash, hunks, user_edited, applied, created_at`

func scanChange(row rowScanner) (Change, error) {
	var c Change
	var hunks []byte
	var edited sql.NullString
	var created int64
	if err := row.Scan(&c.ID, &c.ToolCallID, &c.Path, &c.OldHash, &c.NewHash, &hunks, &edited, &c.Applied, &created); err != nil {
		return Change{}, err
	}
	if err := json.Unmarshal(hunks, &c.Hunks); err != nil {
		return Change{}, fmt.Errorf("change %d hunks: %w", c.ID, err)
	}
	if edited.Valid {
		c.UserEdited = &edited.String
	}
	c.CreatedAt = fromMillis(created)
	return c, nil
}

func encodeHunks(h []Hunk) (string, error) {
	if h == nil {
		return "[]", nil
	}
	b, err := json.Marshal(h)
	return string(b), err
}

// Insert records a change proposed by a tool call. CreatedAt
// defaults to now.
func (s *Changes) Insert(ctx context.Context, c Change) (Change, error) {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	return insert(ctx, s.database, c, insertChange)
}

func insertChange(ctx context.Context, tx *sql.Tx, c Change) (Change, error) {
	hunks, err := encodeHunks(c.Hunks)
	if err != nil {
		return Change{}, err
	}
	return scanChange(tx.QueryRowContext(ctx, `
		INSERT INTO changes (tool_call_id, path, old_hash, new_hash, hunks, user_edited, applied, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+changeCols,
		c.ToolCallID, c.Path, c.OldHash, c.NewHash, hunks, c.UserEdited, c.Applied, millis(c.CreatedAt)))
}

// Decide records the decision on each hunk and the user's edited
// text (nil: not edited).
func (s *Changes) Decide(ctx context.Context, id int64, hunks []Hunk, userEdited *string) error {
	h, err := encodeHunks(hunks)
	if err != nil {
		return err
	}
	return s.updateChange(ctx, id, `hunks = ?, user_edited = ?`, h, userEdited)
}

// SetApplied records whether the change was written to disk, and
// the hash of the file as written.
func (s *Changes) SetApplied(ctx context.Context, id int64, applied bool, newHash string) error {
	return s.updateChange(ctx, id, `applied = ?, new_hash = ?`, applied, newHash)
}

func (s *Changes) updateChange(ctx context.Context, id int64, set string, args ...any) error {
	return s.updateRow(ctx, "changes", "change", id, set, args...)
}

// List returns the changes proposed in a session, oldest first.
func (s *Changes) List(ctx context.Context, sessionID int64) ([]Change, error) {
	return listChanges(ctx, s.r, sessionID)
}

func listChanges(ctx context.Context, q querier, sessionID int64) ([]Change, error) {
	return queryAll(ctx, q, scanChange, `SELECT `+prefixCols("c", changeCols)+`
		FROM changes c JOIN tool_calls t ON t.id = c.tool_call_id
		WHERE t.session_id = ? ORDER BY c.id`, sessionID)
}
