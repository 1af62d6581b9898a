package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Summary is the latest compaction of a session: Text stands for the
// messages after the first one and before KeepID, the first message that
// is sent to the model as it is.
type Summary struct {
	SessionID int64     `json:"sessionId"`
	Text      string    `json:"text"`
	KeepID    int64     `json:"keepId"`
	CreatedAt time.Time `json:"createdAt"`
}

// SaveSummary records a session's summary in place of the one it had.
// keepID must be a message of the session (ErrNotFound) and text not
// empty (ErrInvalid).
func (s *Messages) SaveSummary(ctx context.Context, sessionID int64, text string, keepID int64) (Summary, error) {
	x := Summary{SessionID: sessionID, Text: text, KeepID: keepID, CreatedAt: fromMillis(millis(s.now()))}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return affected(tx.ExecContext(ctx, `
			INSERT INTO session_summaries (session_id, text, keep_message_id, created_at)
			SELECT session_id, ?, id, ? FROM messages WHERE id = ? AND session_id = ?
			ON CONFLICT (session_id) DO UPDATE SET text = excluded.text,
				keep_message_id = excluded.keep_message_id, created_at = excluded.created_at`,
			text, millis(x.CreatedAt), keepID, sessionID))
	})
	if errors.Is(err, ErrNotFound) {
		return Summary{}, fmt.Errorf("message %d of session %d: %w", keepID, sessionID, ErrNotFound)
	}
	if err != nil {
		return Summary{}, constraint(err)
	}
	return x, nil
}

// Summary returns a session's latest summary, ErrNotFound when it has none.
func (s *Messages) Summary(ctx context.Context, sessionID int64) (Summary, error) {
	return getSummary(ctx, s.r, sessionID)
}

func getSummary(ctx context.Context, q querier, sessionID int64) (Summary, error) {
	x := Summary{SessionID: sessionID}
	var created int64
	err := q.QueryRowContext(ctx, `SELECT text, keep_message_id, created_at FROM session_summaries
		WHERE session_id = ?`, sessionID).Scan(&x.Text, &x.KeepID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Summary{}, fmt.Errorf("summary of session %d: %w", sessionID, ErrNotFound)
	}
	if err != nil {
		return Summary{}, err
	}
	x.CreatedAt = fromMillis(created)
	return x, nil
}
