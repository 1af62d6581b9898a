package store

import (
	"context"
	"database/sql"
	"errors"

	"pilot/backend/wire"
)

// Transcript is a whole session: what the window shows when it opens one,
// and what export writes.
type Transcript struct {
	Project   Project    `json:"project"`
	Session   Session    `json:"session"`
	Messages  []Message  `json:"messages"`
	ToolCalls []ToolCall `json:"toolCalls"`
	Changes   []Change   `json:"changes"`
	Summary   *Summary   `json:"summary,omitempty"` // the latest compaction, if any
	// Comments are the user's line comments, drafts and sent.
	Comments []wire.LineComment `json:"comments,omitempty"`
}

// Transcript reads a session with every message, tool call and change, as
// of one moment (a single read transaction).
func (s *Sessions) Transcript(ctx context.Context, sessionID int64) (Transcript, error) {
	return readSession(ctx, s.database, sessionID, func(tx *sql.Tx, sess Session) (Transcript, error) {
		return transcript(ctx, tx, sess)
	})
}

func transcript(ctx context.Context, tx *sql.Tx, sess Session) (Transcript, error) {
	sessionID := sess.ID
	t := Transcript{Session: sess}
	var err error
	if t.Project, err = scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects WHERE id = ?`, t.Session.ProjectID)); err != nil {
		return Transcript{}, err
	}
	if t.Messages, err = listMessages(ctx, tx, sessionID); err != nil {
		return Transcript{}, err
	}
	if t.ToolCalls, err = listToolCallsOf(ctx, tx, sessionID, t.Messages); err != nil {
		return Transcript{}, err
	}
	if t.Changes, err = listChanges(ctx, tx, sessionID); err != nil {
		return Transcript{}, err
	}
	if t.Comments, err = listComments(ctx, tx, sessionID); err != nil {
		return Transcript{}, err
	}
	switch sum, err := getSummary(ctx, tx, sessionID); {
	case err == nil:
		t.Summary = &sum
	case !errors.Is(err, ErrNotFound):
		return Transcript{}, err
	}
	return t, nil
}
