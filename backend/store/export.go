package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"pilot/backend/llm"
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// ExportFormat and ExportVersion identify the JSON export.
const (
	ExportFormat  = "pilot-session"
	ExportVersion = 1
)

// Export is the JSON form of a session. It holds no database ids: tool
// calls sit under the message that asked for them and changes under their
// tool call, so an export imported and exported again is the same document.
// Fork lineage is not exported.
type Export struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Project  string          `json:"project"` // path of the project it came from
	Session  ExportSession   `json:"session"`
	Messages []ExportMessage `json:"messages"`
	Summary  *ExportSummary  `json:"summary,omitempty"` // absent in exports made before summaries were kept
	// Todos is the task list (Transcript.Todos): read from the tool calls,
	// so an import ignores it and makes the same list again.
	Todos []todo.Item `json:"todos,omitempty"`
	// Comments are the user's line comments, oldest first.
	Comments []wire.Comment `json:"comments,omitempty"`
}

// ExportSession is a session's own fields.
type ExportSession struct {
	SessionInfo
	ApprovalMode string  `json:"approvalMode"`
	BudgetUSD    float64 `json:"budgetUsd,omitempty"`
}

// ExportMessage is a message with the tool calls it asked for.
type ExportMessage struct {
	Role      llm.Role           `json:"role"`
	Content   []llm.ContentBlock `json:"content"`
	Usage     llm.Usage          `json:"usage"`
	State     wire.MessageState  `json:"state"`
	CreatedAt time.Time          `json:"createdAt"`
	ToolCalls []ExportToolCall   `json:"toolCalls,omitempty"`
}

// ExportSummary is the session's latest compaction; Keep is the index in
// Messages of the first message kept as it is.
type ExportSummary struct {
	Text      string    `json:"text"`
	Keep      int       `json:"keep"`
	CreatedAt time.Time `json:"createdAt"`
}

// ExportToolCall is a tool call with the changes it proposed.
type ExportToolCall struct {
	Call
	Changes []ExportChange `json:"changes,omitempty"`
	// Elicitations are the MCP server's requests for input during the
	// call, with the answers (ToolCall.Elicitations).
	Elicitations json.RawMessage `json:"elicitations,omitempty"`
}

// ExportChange is a proposed change.
type ExportChange struct {
	Path       string    `json:"path"`
	OldHash    string    `json:"oldHash"`
	NewHash    string    `json:"newHash"`
	Hunks      []Hunk    `json:"hunks"`
	UserEdited *string   `json:"userEdited,omitempty"`
	Applied    bool      `json:"applied"`
	CreatedAt  time.Time `json:"createdAt"`
}

// Export returns the JSON form of a transcript.
func (t Transcript) Export() Export {
	x := t.Session
	e := Export{
		Format: ExportFormat, Version: ExportVersion, Project: t.Project.Path,
		Session:  ExportSession{SessionInfo: x.SessionInfo, ApprovalMode: x.ApprovalMode, BudgetUSD: x.BudgetUSD},
		Messages: make([]ExportMessage, 0, len(t.Messages)),
		Todos:    t.Todos(),
	}
	for _, c := range t.Comments {
		e.Comments = append(e.Comments, c.Comment)
	}
	changes := map[int64][]ExportChange{}
	for _, c := range t.Changes {
		changes[c.ToolCallID] = append(changes[c.ToolCallID], ExportChange{
			Path: c.Path, OldHash: c.OldHash, NewHash: c.NewHash, Hunks: c.Hunks,
			UserEdited: c.UserEdited, Applied: c.Applied, CreatedAt: c.CreatedAt,
		})
	}
	calls := map[int64][]ExportToolCall{}
	for _, c := range t.ToolCalls {
		calls[c.MessageID] = append(calls[c.MessageID], ExportToolCall{Call: c.Call, Changes: changes[c.ID], Elicitations: rawOrNil(c.Elicitations)})
	}
	for i, m := range t.Messages {
		e.Messages = append(e.Messages, ExportMessage{
			Role: m.Role, Content: m.Content, Usage: m.Usage, State: m.State, CreatedAt: m.CreatedAt,
			ToolCalls: calls[m.ID],
		})
		if t.Summary != nil && t.Summary.KeepID == m.ID {
			e.Summary = &ExportSummary{Text: t.Summary.Text, Keep: i, CreatedAt: t.Summary.CreatedAt}
		}
	}
	return e
}

// WriteJSON writes the export of a session, indented.
func (s *Store) WriteJSON(ctx context.Context, sessionID int64, w io.Writer) error {
	t, err := s.exportTranscript(ctx, sessionID)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t.Export())
}

// Import reads an export written by WriteJSON and adds it to a project as
// a new session, keeping its times, usage and states. An export carries no
// authority: the session comes in at mode (the user's default approval
// mode; "" is ask), never at the mode the file names, under the user's own
// budget (the file's is dropped), with no negative cost or token counts
// (which would lift the budget), and its tool calls are marked imported,
// so their approvals are history, never grants (see ApprovedHere).
func (s *Store) Import(ctx context.Context, projectID int64, r io.Reader, mode string) (Session, error) {
	var e Export
	if err := json.NewDecoder(r).Decode(&e); err != nil {
		return Session{}, fmt.Errorf("%w: not a session export: %v", ErrInvalid, err)
	}
	if e.Format != ExportFormat || e.Version != ExportVersion {
		return Session{}, fmt.Errorf("%w: export format %q version %d, want %q version %d",
			ErrInvalid, e.Format, e.Version, ExportFormat, ExportVersion)
	}
	release, err := s.importImages(&e)
	if err != nil {
		return Session{}, err
	}
	defer release()
	var id int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = importSession(ctx, tx, projectID, e, mode)
		return err
	})
	if err != nil {
		return Session{}, constraint(err)
	}
	return s.Sessions.Get(ctx, id)
}

func importSession(ctx context.Context, tx *sql.Tx, projectID int64, e Export, mode string) (int64, error) {
	x := e.Session
	if negative(x.Usage) || x.CostUSD < 0 {
		return 0, fmt.Errorf("%w: the session's cost or token counts are negative", ErrInvalid)
	}
	mode, plan := modeColumns(mode, "")
	var id int64
	err := tx.QueryRowContext(ctx, `
		INSERT INTO sessions (project_id, title, provider, model, created_at, updated_at,
			input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, state,
			approval_mode, plan_mode, budget_usd)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		projectID, x.Title, x.Provider, x.Model, millis(x.CreatedAt), millis(x.UpdatedAt),
		x.Usage.InputTokens, x.Usage.OutputTokens, x.Usage.CacheReadTokens, x.Usage.CacheWriteTokens,
		x.CostUSD, string(x.State), mode, plan, nil).Scan(&id) // the user's own budget applies, not the file's
	if err != nil {
		return 0, err
	}
	ids := make([]int64, len(e.Messages))
	for seq, m := range e.Messages {
		if negative(m.Usage) {
			return 0, fmt.Errorf("%w: message %d has negative token counts", ErrInvalid, seq)
		}
		content, err := encodeBlocks(m.Content)
		if err != nil {
			return 0, err
		}
		var mid int64
		err = tx.QueryRowContext(ctx, `
			INSERT INTO messages (session_id, seq, role, content, input_tokens, output_tokens,
				cache_read_tokens, cache_write_tokens, state, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			id, seq, string(m.Role), content, m.Usage.InputTokens, m.Usage.OutputTokens,
			m.Usage.CacheReadTokens, m.Usage.CacheWriteTokens, string(m.State), millis(m.CreatedAt)).Scan(&mid)
		if err != nil {
			return 0, err
		}
		ids[seq] = mid
		for _, c := range m.ToolCalls {
			tc, err := insertToolCall(ctx, tx, ToolCall{SessionID: id, MessageID: mid, Call: c.Call})
			if err != nil {
				return 0, err
			}
			for _, ch := range c.Changes {
				_, err := insertChange(ctx, tx, Change{
					ToolCallID: tc.ID, Path: ch.Path, OldHash: ch.OldHash, NewHash: ch.NewHash, Hunks: ch.Hunks,
					UserEdited: ch.UserEdited, Applied: ch.Applied, CreatedAt: ch.CreatedAt,
				})
				if err != nil {
					return 0, err
				}
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tool_calls SET imported = 1 WHERE session_id = ?`, id); err != nil {
		return 0, err
	}
	for _, c := range e.Comments {
		if err := insertComment(ctx, tx, &wire.LineComment{SessionID: id, Comment: c}); err != nil {
			return 0, err
		}
	}
	if x := e.Summary; x != nil {
		if x.Keep < 0 || x.Keep >= len(ids) {
			return 0, fmt.Errorf("%w: the summary keeps message %d of %d", ErrInvalid, x.Keep, len(ids))
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO session_summaries (session_id, text, keep_message_id, created_at)
			VALUES (?, ?, ?, ?)`, id, x.Text, ids[x.Keep], millis(x.CreatedAt))
		if err != nil {
			return 0, err
		}
	}
	return id, nil
}

// negative reports whether a usage has a negative count.
func negative(u llm.Usage) bool {
	return u.InputTokens < 0 || u.OutputTokens < 0 || u.CacheReadTokens < 0 || u.CacheWriteTokens < 0
}

// rawOrNil is a stored JSON column as raw JSON, nil when empty.
func rawOrNil(stored string) json.RawMessage {
	if stored == "" {
		return nil
	}
	return json.RawMessage(stored)
}
