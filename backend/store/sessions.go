package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// Session is one conversation in a project.
type Session struct {
	ID        int64 `json:"id"`
	ProjectID int64 `json:"projectId"`
	SessionInfo
	// ParentSessionID and ParentMessageID name the session and message a
	// fork was made from; 0 when not a fork (or the parent was deleted).
	ParentSessionID int64 `json:"parentSessionId,omitempty"`
	ParentMessageID int64 `json:"parentMessageId,omitempty"`
	// ApprovalMode is plan, ask, edits, all or none (see pilot --approve).
	ApprovalMode string `json:"approvalMode"`
	// BudgetUSD caps the session's cost; 0 means no cap.
	BudgetUSD float64 `json:"budgetUsd,omitempty"`
	// Worktree is set for a session that works in its own git worktree.
	Worktree Worktree `json:"worktree,omitzero"`
}

// SessionInfo is what a session is apart from its ids and lineage: the
// fields a Session and its export (ExportSession) share, in the order
// both marshal them.
type SessionInfo struct {
	Title     string    `json:"title"`
	Provider  string    `json:"provider"`
	Model     string    `json:"model"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Usage is the sum over every model call of the session.
	Usage   llm.Usage         `json:"usage"`
	CostUSD float64           `json:"costUsd"`
	State   wire.SessionState `json:"state"`
}

// Worktree is a session's own git worktree (migration 0011); zero for a
// session in the project folder itself.
type Worktree struct {
	Path   string `json:"path"`   // absolute
	Branch string `json:"branch"` // pilot/NAME
	Base   string `json:"base"`   // the commit the branch was made from
	// Discarded: the worktree and its branch were removed (migration
	// 0012); the session stays as history and runs no more turns.
	Discarded bool `json:"discarded,omitempty"`
}

// Root is the folder the session works in: its worktree, or the project
// folder at projectPath.
func (x Session) Root(projectPath string) string {
	if x.Worktree.Path != "" {
		return x.Worktree.Path
	}
	return projectPath
}

// NewSession is what Create needs. Empty ApprovalMode means "ask".
type NewSession struct {
	ProjectID    int64
	Title        string
	Provider     string
	Model        string
	ApprovalMode string
	BudgetUSD    float64
	Worktree     Worktree
}

const sessionCols = `id, project_id, title, provider, model, created_at, updated_at,
	input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, state,
	parent_session_id, parent_message_id,
	CASE WHEN plan_mode = 1 THEN 'plan' ELSE approval_mode END, budget_usd,
	worktree, worktree_branch, worktree_base, worktree_discarded`

// PlanMode is the approval mode stored as sessions.plan_mode (migration
// 0006); approval_mode then keeps the mode the session had before.
const PlanMode = "plan"

// modeColumns splits a mode into the approval_mode and plan_mode columns;
// plan keeps prev (the stored approval_mode, "" for a new session: ask).
func modeColumns(mode, prev string) (string, int) {
	if mode == PlanMode {
		if prev == "" || prev == PlanMode {
			prev = "ask"
		}
		return prev, 1
	}
	if mode == "" {
		mode = "ask"
	}
	return mode, 0
}

func scanSession(row rowScanner) (Session, error) {
	var x Session
	var created, updated int64
	var parentS, parentM sql.NullInt64
	var budget sql.NullFloat64
	err := row.Scan(&x.ID, &x.ProjectID, &x.Title, &x.Provider, &x.Model, &created, &updated,
		&x.Usage.InputTokens, &x.Usage.OutputTokens, &x.Usage.CacheReadTokens, &x.Usage.CacheWriteTokens,
		&x.CostUSD, &x.State, &parentS, &parentM, &x.ApprovalMode, &budget,
		&x.Worktree.Path, &x.Worktree.Branch, &x.Worktree.Base, &x.Worktree.Discarded)
	if err != nil {
		return Session{}, err
	}
	x.CreatedAt, x.UpdatedAt = fromMillis(created), fromMillis(updated)
	x.ParentSessionID, x.ParentMessageID = parentS.Int64, parentM.Int64
	x.BudgetUSD = budget.Float64
	return x, nil
}

func nullBudget(b float64) any {
	if b == 0 {
		return nil
	}
	return b
}

// Create starts an empty session in a project.
func (s *Sessions) Create(ctx context.Context, n NewSession) (Session, error) {
	mode, plan := modeColumns(n.ApprovalMode, "")
	now := millis(s.now())
	var x Session
	err := s.write(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			INSERT INTO sessions (project_id, title, provider, model, created_at, updated_at, approval_mode, plan_mode, budget_usd,
				worktree, worktree_branch, worktree_base)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+sessionCols,
			n.ProjectID, n.Title, n.Provider, n.Model, now, now, mode, plan, nullBudget(n.BudgetUSD),
			n.Worktree.Path, n.Worktree.Branch, n.Worktree.Base)
		var err error
		x, err = scanSession(row)
		return err
	})
	return x, constraint(err)
}

// Get returns one session.
func (s *Sessions) Get(ctx context.Context, id int64) (Session, error) {
	return getSession(ctx, s.r, id)
}

func getSession(ctx context.Context, q querier, id int64) (Session, error) {
	x, err := scanSession(q.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session %d: %w", id, ErrNotFound)
	}
	return x, err
}

// List lists a project's sessions, the most recently updated first,
// skipping offset and returning at most limit (limit <= 0: all).
func (s *Sessions) List(ctx context.Context, projectID int64, limit, offset int) ([]Session, error) {
	if limit <= 0 {
		limit = -1
	}
	return queryAll(ctx, s.r, scanSession, `SELECT `+sessionCols+` FROM sessions
		WHERE project_id = ? ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`,
		projectID, limit, max(offset, 0))
}

// Empty returns the ids of sessions that hold no message and no
// checkpoint (a merge's session changed files without a message), of one
// project (projectID 0: of every project), created before createdBefore
// (zero: whenever). A session in a worktree counts only withWorktrees:
// the user named it, and its worktree and branch may hold work of their
// own.
func (s *Sessions) Empty(ctx context.Context, projectID int64, createdBefore time.Time, withWorktrees bool) ([]int64, error) {
	before := int64(1<<62 - 1)
	if !createdBefore.IsZero() {
		before = millis(createdBefore)
	}
	return queryAll(ctx, s.r, scanValue[int64], `SELECT id FROM sessions
		WHERE (? = 0 OR project_id = ?) AND created_at < ?
		AND NOT EXISTS (SELECT 1 FROM messages WHERE messages.session_id = sessions.id)
		AND NOT EXISTS (SELECT 1 FROM checkpoints WHERE checkpoints.session_id = sessions.id)
		AND (? OR worktree = '')`,
		projectID, projectID, before, withWorktrees)
}

// Rename sets a session's title.
func (s *Sessions) Rename(ctx context.Context, id int64, title string) error {
	return s.updateSession(ctx, id, `title = ?`, title)
}

// MarkWorktreeDiscarded records that a worktree session's worktree and
// branch were removed; its path, branch and base stay as history.
func (s *Sessions) MarkWorktreeDiscarded(ctx context.Context, id int64) error {
	return s.updateSession(ctx, id, `worktree_discarded = 1`)
}

// SetModel sets the model a session's next turns use.
func (s *Sessions) SetModel(ctx context.Context, id int64, model string) error {
	return s.updateSession(ctx, id, `model = ?`, model)
}

// SetState records where the session's agent loop stands. The loop sets
// wire.SessionRunning when a turn starts and wire.SessionIdle (or wire.SessionError) when
// it ends; a session left running by a crash is repaired at the next Open.
func (s *Sessions) SetState(ctx context.Context, id int64, state wire.SessionState) error {
	return s.updateSession(ctx, id, `state = ?`, string(state))
}

// UpdateUsage adds one model call's tokens and cost to the session's totals.
func (s *Sessions) UpdateUsage(ctx context.Context, id int64, u llm.Usage, costUSD float64) error {
	return s.updateSession(ctx, id, `input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
		cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
		cost_usd = cost_usd + ?`,
		u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, costUSD)
}

// SetApprovalMode sets the session's mode (plan, ask, edits, all, none).
// Plan keeps the mode the session had, for when it leaves plan mode. It
// does not touch updated_at: switching modes is not activity that should
// move the session up the list.
func (s *Sessions) SetApprovalMode(ctx context.Context, id int64, mode string) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var prev string
		if err := tx.QueryRowContext(ctx, `SELECT approval_mode FROM sessions WHERE id = ?`, id).Scan(&prev); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		m, plan := modeColumns(mode, prev)
		return affected(tx.ExecContext(ctx, `UPDATE sessions SET approval_mode = ?, plan_mode = ? WHERE id = ?`, m, plan, id))
	})
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("session %d: %w", id, ErrNotFound)
	}
	return constraint(err)
}

// updateSession sets columns of one session and bumps updated_at.
func (s *database) updateSession(ctx context.Context, id int64, set string, args ...any) error {
	return constraint(s.execRow(ctx, "session", id, `UPDATE sessions SET `+set+`, updated_at = ? WHERE id = ?`, append(args, millis(s.now()))...))
}

// Delete removes a session with its messages, tool calls and
// changes. Forks of it stay, without their parent.
func (s *Sessions) Delete(ctx context.Context, id int64) error {
	return s.execRow(ctx, "session", id, `DELETE FROM sessions WHERE id = ?`)
}

// touchSession bumps updated_at inside a write transaction.
func touchSession(ctx context.Context, tx *sql.Tx, id int64, now int64) error {
	return affected(tx.ExecContext(ctx, `UPDATE sessions SET updated_at = ? WHERE id = ?`, now, id))
}
