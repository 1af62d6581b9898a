package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"pilot/backend/llm"
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// PageQuery picks a run of a session's messages, newest first: the last
// Limit messages before Before (a message id; 0: the session's end),
// reaching back at least to From (a message id; 0: no such need).
type PageQuery struct {
	Before int64
	From   int64
	Limit  int
}

// Page is a run of consecutive messages of a session with their tool calls
// (helpers' calls included), read as of one moment. A page never starts
// with the result of a call made in an earlier message: the call's message
// is taken in, so a card and its output come together.
type Page struct {
	Session   Session
	Messages  []Message
	ToolCalls []ToolCall
	// HasOlder is whether messages precede the page.
	HasOlder bool
	// Todos is the session's task list (see Transcript.Todos), whatever page.
	Todos []todo.Item
	// LastUsage is the usage of the session's last assistant message that
	// has any (the context in use), whatever page.
	LastUsage llm.Usage
}

// TranscriptPage reads one page of a session (see PageQuery). The window
// opens a session at its last page and reads older ones as the user
// scrolls up: a page is as cheap to read whatever the session's length.
func (s *Sessions) TranscriptPage(ctx context.Context, sessionID int64, q PageQuery) (Page, error) {
	if q.Limit < 1 {
		return Page{}, fmt.Errorf("page of session %d: limit %d, want at least 1", sessionID, q.Limit)
	}
	return readSession(ctx, s.database, sessionID, func(tx *sql.Tx, sess Session) (Page, error) {
		return page(ctx, tx, sess, q)
	})
}

func page(ctx context.Context, tx *sql.Tx, sess Session, q PageQuery) (Page, error) {
	sessionID := sess.ID
	p := Page{Session: sess}
	var err error
	end := int64(math.MaxInt64)
	if q.Before != 0 {
		if end, err = messageSeq(ctx, tx, sessionID, q.Before); err != nil {
			return Page{}, err
		}
	}
	start, err := pageStart(ctx, tx, sessionID, end, q)
	if err != nil {
		return Page{}, err
	}
	if p.Messages, err = listMessagesBetween(ctx, tx, sessionID, start, end); err != nil {
		return Page{}, err
	}
	if err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM messages WHERE session_id = ? AND seq < ?)`, sessionID, start).Scan(&p.HasOlder); err != nil {
		return Page{}, err
	}
	if p.ToolCalls, err = pageToolCalls(ctx, tx, sessionID, start, end); err != nil {
		return Page{}, err
	}
	if p.Todos, err = latestTodos(ctx, tx, sessionID); err != nil {
		return Page{}, err
	}
	err = tx.QueryRowContext(ctx, `SELECT input_tokens, output_tokens, cache_read_tokens, cache_write_tokens
		FROM messages WHERE session_id = ? AND role = 'assistant' AND input_tokens + output_tokens > 0
		ORDER BY seq DESC LIMIT 1`, sessionID).
		Scan(&p.LastUsage.InputTokens, &p.LastUsage.OutputTokens, &p.LastUsage.CacheReadTokens, &p.LastUsage.CacheWriteTokens)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Page{}, err
	}
	return p, nil
}

// messageSeq is the position of message id in the session.
func messageSeq(ctx context.Context, q querier, sessionID, id int64) (int64, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT seq FROM messages WHERE id = ? AND session_id = ?`, id, sessionID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("message %d of session %d: %w", id, sessionID, ErrNotFound)
	}
	return seq, err
}

// pageStart is the seq of a page's first message: Limit messages before
// end, earlier if From is earlier, and earlier again to the message of a
// call whose result the first message holds.
func pageStart(ctx context.Context, q querier, sessionID, end int64, pq PageQuery) (int64, error) {
	var start int64
	err := q.QueryRowContext(ctx, `SELECT seq FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1 OFFSET ?`,
		sessionID, end, pq.Limit-1).Scan(&start)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	// No row: fewer than Limit messages before end, the page starts at the first.
	if pq.From != 0 {
		from, err := messageSeq(ctx, q, sessionID, pq.From)
		if err != nil {
			return 0, err
		}
		start = min(start, from)
	}
	var call sql.NullInt64
	err = q.QueryRowContext(ctx, `SELECT MIN(m.seq) FROM tool_calls c
		JOIN messages r ON r.id = c.result_message_id
		JOIN messages m ON m.id = c.message_id
		WHERE r.session_id = ? AND r.seq = ?`, sessionID, start).Scan(&call)
	if err != nil {
		return 0, err
	}
	if call.Valid && call.Int64 < start {
		start = call.Int64
	}
	return start, nil
}

// pageToolCalls are the calls made in the messages from <= seq < to.
func pageToolCalls(ctx context.Context, q querier, sessionID, from, to int64) ([]ToolCall, error) {
	return queryToolCalls(ctx, q, `WHERE session_id = ? AND message_id IN
		(SELECT id FROM messages WHERE session_id = ? AND seq >= ? AND seq < ?) ORDER BY id`, sessionID, sessionID, from, to)
}

// latestTodos is the input of the session's latest todo_write call that
// succeeded and parses (nil when there is none).
func latestTodos(ctx context.Context, q querier, sessionID int64) ([]todo.Item, error) {
	rows, err := q.QueryContext(ctx, `SELECT input FROM tool_calls WHERE session_id = ? AND name = ? AND status = ? ORDER BY id DESC`,
		sessionID, todo.ToolName, string(wire.ToolDone))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var input string
		if err := rows.Scan(&input); err != nil {
			return nil, err
		}
		if items, err := todo.Parse([]byte(input)); err == nil {
			return items, nil
		}
	}
	return nil, rows.Err()
}
