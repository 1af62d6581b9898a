package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// InterruptedToolResult is the tool_result content Repair gives a tool_use
// that never got a result.
const InterruptedToolResult = "The run was interrupted before this tool call finished " +
	"(Pilot was closed or stopped). Whether it had any effect is unknown; check before relying on it."

// RepairAll repairs every session a crash or kill left unfinished: those
// still marked running and those with a message still streaming. Open calls
// it, before any turn can run.
func (s *Sessions) RepairAll(ctx context.Context) error {
	ids, err := queryAll(ctx, s.r, scanValue[int64], `
		SELECT id FROM sessions WHERE state = 'running'
		UNION SELECT session_id FROM messages WHERE state = 'streaming'`)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := s.Repair(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// Repair makes a session valid to continue after a crash, a kill or a
// cancelled turn: a message left streaming becomes interrupted (or goes,
// if no text arrived), tool calls that never finished become cancelled,
// and if the last message is an assistant message with tool_use blocks, a
// user message answers each with a tool_result: the tool call's recorded
// output where it finished, InterruptedToolResult where not. A session
// marked running becomes interrupted. It reports whether anything changed.
// Call it before resuming a session, never while its turn runs.
func (s *Sessions) Repair(ctx context.Context, sessionID int64) (bool, error) {
	return writeOne(ctx, s.database, func(tx *sql.Tx) (bool, error) {
		return s.repair(ctx, tx, sessionID)
	})
}

func (s *Sessions) repair(ctx context.Context, tx *sql.Tx, sessionID int64) (bool, error) {
	now := millis(s.now())
	var n int64
	for _, q := range []string{
		`DELETE FROM messages WHERE session_id = ? AND state = 'streaming'
			AND NOT EXISTS (SELECT 1 FROM json_each(content) WHERE value ->> 'text' <> '')`,
		`UPDATE messages SET state = 'interrupted' WHERE session_id = ? AND state = 'streaming'`,
		`UPDATE sessions SET state = 'interrupted' WHERE id = ? AND state = 'running'`,
	} {
		res, err := tx.ExecContext(ctx, q, sessionID)
		if err != nil {
			return false, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	res, err := tx.ExecContext(ctx, `UPDATE tool_calls SET status = 'cancelled', output = ?,
		finished_at = MAX(started_at, ?), result_message_id = NULL
		WHERE session_id = ? AND status IN ('running', 'awaiting_approval')`,
		InterruptedToolResult, now, sessionID)
	if err != nil {
		return false, err
	}
	k, _ := res.RowsAffected()
	n += k
	closed, err := s.closeToolUses(ctx, tx, sessionID)
	if err != nil {
		return false, err
	}
	if n > 0 || closed {
		if err := touchSession(ctx, tx, sessionID, now); err != nil {
			return false, fmt.Errorf("session %d: %w", sessionID, err)
		}
	}
	return n > 0 || closed, nil
}

// closeToolUses appends tool results when the last message is an assistant
// message asking for tools.
func (s *Sessions) closeToolUses(ctx context.Context, tx *sql.Tx, sessionID int64) (bool, error) {
	var role string
	var content []byte
	err := tx.QueryRowContext(ctx, `SELECT role, content FROM messages WHERE session_id = ?
		ORDER BY seq DESC LIMIT 1`, sessionID).Scan(&role, &content)
	if err == sql.ErrNoRows || (err == nil && role != string(llm.RoleAssistant)) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var blocks []llm.ContentBlock
	if err := json.Unmarshal(content, &blocks); err != nil {
		return false, err
	}
	var results []llm.ContentBlock
	for _, b := range blocks {
		if b.Type != llm.BlockToolUse {
			continue
		}
		r := llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: b.ID, Content: InterruptedToolResult, IsError: true}
		var status wire.ToolStatus
		var output string
		err := tx.QueryRowContext(ctx, `SELECT status, output FROM tool_call_rows WHERE session_id = ? AND tool_use_id = ?`,
			sessionID, b.ID).Scan(&status, &output)
		switch {
		case err == sql.ErrNoRows:
		case err != nil:
			return false, err
		case status == wire.ToolDone:
			r.Content, r.IsError = output, false
		case output != "" && (status == wire.ToolError || status == wire.ToolRejected):
			r.Content = output
		case status == wire.ToolRejected:
			r.Content = "The user rejected this tool call."
		}
		results = append(results, r)
	}
	if len(results) == 0 {
		return false, nil
	}
	_, err = s.insertMessage(ctx, tx, sessionID, llm.Message{Role: llm.RoleUser, Content: results}, llm.Usage{}, wire.MessageComplete)
	return err == nil, err
}
