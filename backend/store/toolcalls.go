package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// finished reports whether the status is final.
func finished(t wire.ToolStatus) bool {
	return t == wire.ToolDone || t == wire.ToolError || t == wire.ToolRejected || t == wire.ToolCancelled
}

// Approval is how a tool call was allowed or refused.
type Approval string

const (
	ApprovalNone     Approval = "none"     // not asked (read-only tool) or not yet decided
	ApprovalAuto     Approval = "auto"     // allowed by the approval mode or a permission rule
	ApprovalApproved Approval = "approved" // the user approved all of it
	ApprovalPartial  Approval = "partial"  // the user approved some hunks
	ApprovalRejected Approval = "rejected" // the user (or a deny rule) refused
)

// ToolCall is one tool_use the model asked for and what came of it.
type ToolCall struct {
	ID        int64 `json:"id"`
	SessionID int64 `json:"sessionId"`
	MessageID int64 `json:"messageId"` // the assistant message holding the tool_use
	Call
	// ParentToolUseID names the task call of the helper that made this
	// call ("" for the main agent's calls).
	ParentToolUseID string `json:"parentToolUseId,omitempty"`
	// RefusedBy says who refused a rejected call (ToolCalls.SetRefusedBy):
	// RefusedUser, RefusedPlan, RefusedMode, RefusedRule optionally
	// followed by a space and the deny rule; "" when not refused or not
	// known (calls stored before migration 0009).
	RefusedBy string `json:"refusedBy,omitempty"`
	// Sandbox is how a command ran with respect to the OS sandbox, as
	// JSON (events.SandboxInfo, ToolCalls.SetSandbox); "" for other calls.
	Sandbox string `json:"sandbox,omitempty"`
	// Hooks are the settings.json hooks that ran for the call, as JSON (a
	// list of wire.HookRun, ToolCalls.SetHooks); "" when none ran.
	Hooks string `json:"hooks,omitempty"`
	// Diagnostics is what the language servers said after the call's
	// applied change, as JSON (a wire.Diagnostics, ToolCalls.SetDiagnostics);
	// "" when no server checked it.
	Diagnostics string `json:"diagnostics,omitempty"`
	// Instructions are the nested instruction files the call brought in
	// (their text added to its result), as a JSON array of their names
	// relative to the project (ToolCalls.SetInstructions); "" for none.
	Instructions string `json:"instructions,omitempty"`
	// Elicitations are the MCP server's requests for input that came
	// while the call ran, with the answers, as JSON (a list of
	// wire.Elicitation, ToolCalls.SetElicitations); "" for none.
	Elicitations string `json:"elicitations,omitempty"`
}

// Call is what a tool call asked for and what came of it: the fields a
// ToolCall and its export (ExportToolCall) share, in the order both
// marshal them.
type Call struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Output    string          `json:"output"`
	Status    wire.ToolStatus `json:"status"`
	Approval  Approval        `json:"approval"`
	// Feedback is the user's text sent with a rejection.
	Feedback   string    `json:"feedback,omitempty"`
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt,omitzero"`
}

// Who refused a call (ToolCall.RefusedBy).
const (
	RefusedUser = "user" // the user rejected it
	RefusedPlan = "plan" // plan mode runs no change or command
	RefusedMode = "mode" // the session's approval mode refused it
	RefusedRule = "rule" // a deny rule (or the policy for private addresses)
)

// toolCallCols are read from tool_call_rows, which resolves the output of
// a call whose result message holds it (see migration 0002).
const toolCallCols = `id, session_id, message_id, tool_use_id, name, input, output, status,
	approval, feedback, started_at, finished_at, parent_tool_use_id, refused_by, sandbox, hooks, diagnostics, instructions, elicitations`

func scanToolCall(row rowScanner) (ToolCall, error) { return scanToolCallAnd(row) }

// scanToolCallAnd scans toolCallCols, then the columns after them into more.
func scanToolCallAnd(row rowScanner, more ...any) (ToolCall, error) {
	var c ToolCall
	var input string
	var started int64
	var finished sql.NullInt64
	err := row.Scan(append([]any{&c.ID, &c.SessionID, &c.MessageID, &c.ToolUseID, &c.Name, &input, &c.Output,
		&c.Status, &c.Approval, &c.Feedback, &started, &finished, &c.ParentToolUseID, &c.RefusedBy, &c.Sandbox, &c.Hooks, &c.Diagnostics, &c.Instructions, &c.Elicitations}, more...)...)
	if err != nil {
		return ToolCall{}, err
	}
	c.Input = json.RawMessage(input)
	c.StartedAt, c.FinishedAt = fromMillis(started), nullMillis(finished)
	return c, nil
}

// Insert records a tool call of a committed assistant message.
// SessionID, MessageID, ToolUseID and Name are required; empty Status is
// running, empty Approval none, empty Input {}. StartedAt defaults to now.
func (s *ToolCalls) Insert(ctx context.Context, c ToolCall) (ToolCall, error) {
	if c.Status == "" {
		c.Status = wire.ToolRunning
	}
	if c.Approval == "" {
		c.Approval = ApprovalNone
	}
	if len(c.Input) == 0 {
		c.Input = json.RawMessage("{}")
	}
	if c.StartedAt.IsZero() {
		c.StartedAt = s.now()
	}
	return insert(ctx, s.database, c, insertToolCall)
}

func insertToolCall(ctx context.Context, tx *sql.Tx, c ToolCall) (ToolCall, error) {
	var finished any
	if !c.FinishedAt.IsZero() {
		finished = millis(c.FinishedAt)
	}
	return scanToolCall(tx.QueryRowContext(ctx, `
		INSERT INTO tool_calls (session_id, message_id, tool_use_id, name, input, output, status,
			approval, feedback, started_at, finished_at, parent_tool_use_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+toolCallCols, // output not yet linked
		c.SessionID, c.MessageID, c.ToolUseID, c.Name, string(c.Input), c.Output, string(c.Status),
		string(c.Approval), c.Feedback, millis(c.StartedAt), finished, c.ParentToolUseID))
}

// SetStatus moves a tool call to a status that is not final
// (running, awaiting_approval); use ToolCalls.Finish for the others.
func (s *ToolCalls) SetStatus(ctx context.Context, id int64, status wire.ToolStatus) error {
	if finished(status) {
		return fmt.Errorf("%w: %s is a final status, use ToolCalls.Finish", ErrInvalid, status)
	}
	return s.updateToolCall(ctx, id, `status = ?`, string(status))
}

// Finish commits a tool call's output and final status (done,
// error, rejected, cancelled) and its finish time.
func (s *ToolCalls) Finish(ctx context.Context, id int64, status wire.ToolStatus, output string) error {
	if !finished(status) {
		return fmt.Errorf("%w: %s is not a final status", ErrInvalid, status)
	}
	return s.updateToolCall(ctx, id, `status = ?, output = ?, finished_at = MAX(started_at, ?),
		result_message_id = NULL`,
		string(status), output, millis(s.now()))
}

// SetApproval records the approval decision and the user's feedback.
func (s *ToolCalls) SetApproval(ctx context.Context, id int64, a Approval, feedback string) error {
	return s.updateToolCall(ctx, id, `approval = ?, feedback = ?`, string(a), feedback)
}

// SetRefusedBy records who refused a call (ToolCall.RefusedBy).
func (s *ToolCalls) SetRefusedBy(ctx context.Context, id int64, by string) error {
	return s.updateToolCall(ctx, id, `refused_by = ?`, by)
}

// Record is a JSON record kept with a call, by its column.
type Record string

// The records kept with a call.
const (
	RecordSandbox      Record = "sandbox"      // how a command ran with respect to the OS sandbox (ToolCall.Sandbox)
	RecordHooks        Record = "hooks"        // the hooks that ran for it (ToolCall.Hooks)
	RecordDiagnostics  Record = "diagnostics"  // what the language servers said after its applied change (ToolCall.Diagnostics)
	RecordInstructions Record = "instructions" // the nested instruction files it brought in (ToolCall.Instructions)
	RecordElicitations Record = "elicitations" // an MCP server's requests for input during it, with their answers (ToolCall.Elicitations)
)

// SetRecord keeps the JSON record r of a call.
func (s *ToolCalls) SetRecord(ctx context.Context, id int64, r Record, js string) error {
	switch r {
	case RecordSandbox, RecordHooks, RecordDiagnostics, RecordInstructions, RecordElicitations:
	default:
		return fmt.Errorf("store: no record %q of a tool call", r)
	}
	return s.updateToolCall(ctx, id, string(r)+" = ?", js)
}

// Brought is a nested instruction file a call brought in
// (ToolCall.Instructions).
type Brought struct {
	ToolUseID string
	Name      string
}

// Instructions are the nested instruction files the session's calls
// brought in, in order: those of the calls asked for by the message since
// or a later one (a compaction's first message kept; 0 for all).
func (s *ToolCalls) Instructions(ctx context.Context, sessionID, since int64) ([]Brought, error) {
	return queryAll(ctx, s.r, func(row rowScanner) (Brought, error) {
		var b Brought
		return b, row.Scan(&b.ToolUseID, &b.Name)
	}, `SELECT t.tool_use_id, j.value FROM tool_calls AS t, json_each(t.instructions) AS j
		WHERE t.session_id = ? AND t.instructions != '' AND t.message_id >= ? ORDER BY t.id, j.key`, sessionID, since)
}

func (s *ToolCalls) updateToolCall(ctx context.Context, id int64, set string, args ...any) error {
	return s.updateRow(ctx, "tool_calls", "tool call", id, set, args...)
}

// updateRow sets columns of the row id of table (set is "col = ?, ...",
// filled from args); what names the row in a not-found error.
func (s *database) updateRow(ctx context.Context, table, what string, id int64, set string, args ...any) error {
	return constraint(s.execRow(ctx, what, id, `UPDATE `+table+` SET `+set+` WHERE id = ?`, args...))
}

// List returns a session's tool calls in the order they started.
func (s *ToolCalls) List(ctx context.Context, sessionID int64) ([]ToolCall, error) {
	return listToolCalls(ctx, s.r, sessionID)
}

// ApprovedHere returns the tool calls named name of a session that the
// user approved on this machine, oldest first: those that came with an
// imported session (or its forks) are history, not approvals.
func (s *ToolCalls) ApprovedHere(ctx context.Context, sessionID int64, name string) ([]ToolCall, error) {
	return queryToolCalls(ctx, s.r, `WHERE session_id = ? AND name = ? AND approval = ? AND imported = 0 ORDER BY id`,
		sessionID, name, string(ApprovalApproved))
}

func listToolCalls(ctx context.Context, q querier, sessionID int64) ([]ToolCall, error) {
	return queryToolCalls(ctx, q, `WHERE session_id = ? ORDER BY id`, sessionID)
}

// queryToolCalls reads the tool calls of tool_call_rows that where picks.
func queryToolCalls(ctx context.Context, q querier, where string, args ...any) ([]ToolCall, error) {
	return queryAll(ctx, q, scanToolCall, `SELECT `+toolCallCols+` FROM tool_call_rows `+where, args...)
}

// listToolCallsOf is listToolCalls for a caller holding the session's
// messages: the outputs their tool_result blocks hold are taken from
// there rather than parsed again in SQL.
func listToolCallsOf(ctx context.Context, q querier, sessionID int64, ms []Message) ([]ToolCall, error) {
	byID := make(map[int64]*Message, len(ms))
	for i := range ms {
		byID[ms[i].ID] = &ms[i]
	}
	return queryAll(ctx, q, func(row rowScanner) (ToolCall, error) {
		var result sql.NullInt64
		c, err := scanToolCallAnd(row, &result)
		if err != nil || !result.Valid {
			return c, err
		}
		m := byID[result.Int64]
		if m == nil {
			return ToolCall{}, fmt.Errorf("tool call %d: result message %d not in session %d", c.ID, result.Int64, sessionID)
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.ToolUseID == c.ToolUseID {
				c.Output = b.Content
				break
			}
		}
		return c, nil
	}, `SELECT `+toolCallCols+`, result_message_id FROM tool_calls
		WHERE session_id = ? ORDER BY id`, sessionID)
}

// ToolUseIDs maps the session's tool calls' row ids to their tool_use ids
// (without reading their inputs and outputs).
func (s *ToolCalls) ToolUseIDs(ctx context.Context, sessionID int64) (map[int64]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, tool_use_id FROM tool_calls WHERE session_id = ?`, sessionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var use string
		if err := rows.Scan(&id, &use); err != nil {
			return nil, err
		}
		out[id] = use
	}
	return out, rows.Err()
}
