package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Fork makes a new session in the same project holding a copy of the
// session's messages up to and including atMessageID, with their tool calls
// and changes. The fork starts with no usage and is repaired, so forking
// at an assistant message that asked for tools gives those tools' recorded
// results. Its title is the parent's with " (fork)". The parent's summary
// is copied when the message it keeps is in the fork.
func (s *Sessions) Fork(ctx context.Context, sessionID, atMessageID int64) (Session, error) {
	now := millis(s.now())
	var fork Session
	err := s.write(ctx, func(tx *sql.Tx) error {
		var atSeq int
		err := tx.QueryRowContext(ctx, `SELECT seq FROM messages WHERE id = ? AND session_id = ?`,
			atMessageID, sessionID).Scan(&atSeq)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("message %d of session %d: %w", atMessageID, sessionID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		fork, err = scanSession(tx.QueryRowContext(ctx, `
			INSERT INTO sessions (project_id, title, provider, model, created_at, updated_at,
				parent_session_id, parent_message_id, approval_mode, plan_mode, budget_usd,
				worktree, worktree_branch, worktree_base, worktree_discarded)
			SELECT project_id, title || ' (fork)', provider, model, ?1, ?1, id, ?2, approval_mode, plan_mode, budget_usd,
				worktree, worktree_branch, worktree_base, worktree_discarded
			FROM sessions WHERE id = ?3 RETURNING `+sessionCols, now, atMessageID, sessionID))
		if err != nil {
			return err
		}
		steps := []string{ // ?1 fork, ?2 parent, ?3 last seq copied
			`INSERT INTO messages (session_id, seq, role, content, input_tokens, output_tokens,
				cache_read_tokens, cache_write_tokens, state, created_at)
			SELECT ?1, seq, role, content, input_tokens, output_tokens,
				cache_read_tokens, cache_write_tokens, state, created_at
			FROM messages WHERE session_id = ?2 AND seq <= ?3 ORDER BY seq`,
			// An output held by a result message stays there when that
			// message is copied too, and is copied out of it when not.
			`INSERT INTO tool_calls (session_id, message_id, tool_use_id, name, input, output, status,
				approval, feedback, started_at, finished_at, result_message_id, parent_tool_use_id, refused_by, sandbox, hooks, diagnostics, instructions, elicitations)
			SELECT ?1, nm.id, t.tool_use_id, t.name, t.input, iif(nr.id IS NULL, t.output, ''), t.status,
				t.approval, t.feedback, t.started_at, t.finished_at, nr.id, t.parent_tool_use_id, t.refused_by, t.sandbox, t.hooks, t.diagnostics, t.instructions, t.elicitations
			FROM tool_call_rows t
			JOIN messages om ON om.id = t.message_id
			JOIN messages nm ON nm.session_id = ?1 AND nm.seq = om.seq
			LEFT JOIN messages orr ON orr.id = t.result_message_id
			LEFT JOIN messages nr ON nr.session_id = ?1 AND nr.seq = orr.seq
			WHERE t.session_id = ?2 AND om.seq <= ?3 ORDER BY t.id`,
			// A call imported into the parent stays imported in the fork.
			`UPDATE tool_calls SET imported = 1 WHERE session_id = ?1 AND tool_use_id IN
				(SELECT tool_use_id FROM tool_calls WHERE session_id = ?2 AND imported = 1)`,
			`INSERT INTO changes (tool_call_id, path, old_hash, new_hash, hunks, user_edited, applied, created_at)
			SELECT nt.id, c.path, c.old_hash, c.new_hash, c.hunks, c.user_edited, c.applied, c.created_at
			FROM changes c
			JOIN tool_calls ot ON ot.id = c.tool_call_id
			JOIN tool_calls nt ON nt.session_id = ?1 AND nt.tool_use_id = ot.tool_use_id
			WHERE ot.session_id = ?2 ORDER BY c.id`,
			// The copies have new ids and the same seq, so the summary's
			// kept message is found by its seq. The summary goes along
			// only when that message is in the fork: then the fork holds
			// every message it stands for. Kept from later on, it also
			// stands for turns the fork does not have, so the fork has
			// none and compacts again when it needs to.
			`INSERT INTO session_summaries (session_id, text, keep_message_id, created_at)
			SELECT ?1, x.text, nm.id, x.created_at
			FROM session_summaries x
			JOIN messages om ON om.id = x.keep_message_id
			JOIN messages nm ON nm.session_id = ?1 AND nm.seq = om.seq
			WHERE x.session_id = ?2 AND om.seq <= ?3`,
		}
		for _, q := range steps {
			args := []any{fork.ID, sessionID, atSeq}
			if !strings.Contains(q, "?3") {
				args = args[:2]
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
		_, err = s.repair(ctx, tx, fork.ID)
		return err
	})
	if err != nil {
		return Session{}, err
	}
	return s.Get(ctx, fork.ID)
}
