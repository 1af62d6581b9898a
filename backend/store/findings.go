package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"pilot/backend/wire"
)

// Findings is the store's findings of /review, each with its session.
type Findings struct{ *database }

const findingCols = `id, session_id, path, line, line_text, text, state`

func scanFinding(row rowScanner) (wire.ReviewFinding, error) {
	var f wire.ReviewFinding
	err := row.Scan(&f.ID, &f.SessionID, &f.Path, &f.Line, &f.LineText, &f.Text, &f.State)
	return f, err
}

// Add stores a review's findings for a session, open, in one
// transaction, and returns them with their ids.
func (s *Findings) Add(ctx context.Context, sessionID int64, fs []wire.ReviewFinding) ([]wire.ReviewFinding, error) {
	out := make([]wire.ReviewFinding, 0, len(fs))
	err := s.write(ctx, func(tx *sql.Tx) error {
		now := millis(s.now())
		for _, f := range fs {
			x, err := scanFinding(tx.QueryRowContext(ctx, `
				INSERT INTO review_findings (session_id, path, line, line_text, text, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
				RETURNING `+findingCols, sessionID, f.Path, f.Line, f.LineText, f.Text, string(wire.FindingOpen), now))
			if err != nil {
				return err
			}
			out = append(out, x)
		}
		return nil
	})
	if err != nil {
		return nil, constraint(err)
	}
	return out, nil
}

// List lists a session's findings, oldest first.
func (s *Findings) List(ctx context.Context, sessionID int64) ([]wire.ReviewFinding, error) {
	return queryAll(ctx, s.r, scanFinding, `SELECT `+findingCols+` FROM review_findings WHERE session_id = ? ORDER BY id`, sessionID)
}

// SetState records what became of a finding and returns it;
// ErrNotFound when there is no such finding, ErrInvalid for a state
// that is none of wire.Finding*.
func (s *Findings) SetState(ctx context.Context, id int64, state wire.FindingState) (wire.ReviewFinding, error) {
	var out wire.ReviewFinding
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = scanFinding(tx.QueryRowContext(ctx, `UPDATE review_findings SET state = ? WHERE id = ? RETURNING `+findingCols, string(state), id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return wire.ReviewFinding{}, fmt.Errorf("finding %d: %w", id, ErrNotFound)
	}
	return out, constraint(err)
}

// Get returns one finding; ErrNotFound when there is none.
func (s *Findings) Get(ctx context.Context, id int64) (wire.ReviewFinding, error) {
	f, err := scanFinding(s.r.QueryRowContext(ctx, `SELECT `+findingCols+` FROM review_findings WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return wire.ReviewFinding{}, fmt.Errorf("finding %d: %w", id, ErrNotFound)
	}
	return f, err
}
