package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// CrashPrefix begins the result of a change a crash interrupted and the
// next start completed or undid (SetRecoveredResult); the card reads what
// follows it.
const CrashPrefix = "Interrupted by a crash; "

// SetRecoveredResult rewrites the result of a tool call that a crash cut
// short (Repair gave it InterruptedToolResult) once the next start found
// out what became of it: the call's status and output, and the content of
// the tool_result block the model reads, become status and text. A call
// whose result is not InterruptedToolResult (it finished, or was rewritten
// already) is left as it is; it reports whether the call was rewritten.
func (s *ToolCalls) SetRecoveredResult(ctx context.Context, toolCallID int64, status wire.ToolStatus, text string) (bool, error) {
	done := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var sessionID int64
		var useID string
		err := tx.QueryRowContext(ctx, `SELECT session_id, tool_use_id FROM tool_call_rows WHERE id = ? AND output = ?`,
			toolCallID, InterruptedToolResult).Scan(&sessionID, &useID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		var msgID int64
		var content []byte
		err = tx.QueryRowContext(ctx, `SELECT m.id, m.content FROM messages AS m, json_each(m.content) AS b
			WHERE m.session_id = ? AND m.role = 'user' AND b.value ->> 'type' = 'tool_result'
			  AND b.value ->> 'tool_use_id' = ? ORDER BY m.seq DESC LIMIT 1`, sessionID, useID).Scan(&msgID, &content)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			var blocks []llm.ContentBlock
			if err := json.Unmarshal(content, &blocks); err != nil {
				return fmt.Errorf("message %d: %w", msgID, err)
			}
			for i := range blocks {
				if blocks[i].Type == llm.BlockToolResult && blocks[i].ToolUseID == useID {
					blocks[i].Content, blocks[i].IsError = text, status != wire.ToolDone
				}
			}
			b, err := json.Marshal(blocks)
			if err != nil {
				return err
			}
			// The unlink trigger copies the old output back first.
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET content = ? WHERE id = ?`, string(b), msgID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tool_calls SET status = ?, output = ?, result_message_id = NULL WHERE id = ?`,
			status, text, toolCallID); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, err
}

// CrashRecoveries returns, by tool_use id, what the next start made of
// the session's changes a crash interrupted: "completed on restart" or
// "undone on restart" (the part of the result after CrashPrefix, up to
// its first period).
func (s *ToolCalls) CrashRecoveries(ctx context.Context, sessionID int64) (map[string]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT tool_use_id, substr(output, 1, 200) FROM tool_calls
		WHERE session_id = ? AND result_message_id IS NULL AND output LIKE ? ESCAPE '\'`, sessionID, CrashPrefix+"%")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, err
		}
		what, _, _ := strings.Cut(strings.TrimPrefix(text, CrashPrefix), ".")
		out[id] = what
	}
	return out, rows.Err()
}

// SetChangesApplied marks the latest proposal of each path of a tool
// call's change as written, with the hash of what was written (by path).
func (s *ToolCalls) SetChangesApplied(ctx context.Context, toolCallID int64, written map[string]string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for p, h := range written {
			if _, err := tx.ExecContext(ctx, `UPDATE changes SET applied = 1, new_hash = ?
				WHERE id = (SELECT max(id) FROM changes WHERE tool_call_id = ? AND path = ?)`, h, toolCallID, p); err != nil {
				return err
			}
		}
		return nil
	})
}
