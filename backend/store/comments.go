package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"pilot/backend/wire"
)

// Comments is the store's line comments (wire.LineComment): kept with the
// session from the moment they are written, sent to the model as one
// review, exported and imported with it.
type Comments struct{ *database }

const commentCols = `id, session_id, path, line, end_line, line_text, text, origin, origin_ref, state`

func scanComment(row rowScanner) (wire.LineComment, error) {
	var c wire.LineComment
	err := row.Scan(&c.ID, &c.SessionID, &c.Path, &c.Line, &c.EndLine, &c.LineText, &c.Text, &c.Origin, &c.OriginRef, &c.State)
	return c, err
}

// Save adds a comment (ID 0) or changes one that was not sent yet: its
// lines, text and state (a draft moved to its line in a re-proposed
// change, or marked outdated). A sent comment is history and is refused.
func (s *Comments) Save(ctx context.Context, c wire.LineComment) (wire.LineComment, error) {
	if c.State == "" {
		c.State = wire.CommentDraft
	}
	if c.State == wire.CommentSent {
		return c, fmt.Errorf("%w: a comment is sent only with its review", ErrInvalid)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if c.ID == 0 {
			return insertComment(ctx, tx, &c)
		}
		return affected(tx.ExecContext(ctx, `UPDATE line_comments SET line = ?, end_line = ?, line_text = ?, text = ?, state = ?
			WHERE id = ? AND session_id = ? AND state <> 'sent'`,
			c.Line, c.EndLine, c.LineText, c.Text, string(c.State), c.ID, c.SessionID))
	})
	if errors.Is(err, ErrNotFound) {
		return c, fmt.Errorf("comment %d of session %d: %w (it was deleted, or already sent)", c.ID, c.SessionID, ErrNotFound)
	}
	return c, constraint(err)
}

func insertComment(ctx context.Context, tx *sql.Tx, c *wire.LineComment) error {
	return tx.QueryRowContext(ctx, `INSERT INTO line_comments (session_id, path, line, end_line, line_text, text, origin, origin_ref, state)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		c.SessionID, c.Path, c.Line, c.EndLine, c.LineText, c.Text, string(c.Origin), c.OriginRef, string(c.State)).Scan(&c.ID)
}

// Delete removes a comment that was not sent.
func (s *Comments) Delete(ctx context.Context, sessionID, id int64) error {
	return s.execRow(ctx, "unsent comment", id, `DELETE FROM line_comments WHERE session_id = ? AND state <> 'sent' AND id = ?`, sessionID)
}

// List returns a session's comments, oldest first.
func (s *Comments) List(ctx context.Context, sessionID int64) ([]wire.LineComment, error) {
	return listComments(ctx, s.r, sessionID)
}

func listComments(ctx context.Context, q querier, sessionID int64) ([]wire.LineComment, error) {
	return queryAll(ctx, q, scanComment, `SELECT `+commentCols+` FROM line_comments WHERE session_id = ? ORDER BY id`, sessionID)
}

// MarkSent marks the drafts ids of a session as sent (their review went
// to the model), all or none: a comment no longer a draft fails it.
func (s *Comments) MarkSent(ctx context.Context, sessionID int64, ids []int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if err := affected(tx.ExecContext(ctx, `UPDATE line_comments SET state = 'sent' WHERE session_id = ? AND id = ? AND state = 'draft'`, sessionID, id)); err != nil {
				return fmt.Errorf("draft comment %d of session %d: %w", id, sessionID, err)
			}
		}
		return nil
	})
}
