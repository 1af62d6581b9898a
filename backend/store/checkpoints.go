package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"pilot/backend/llm"
)

// CheckpointKind is what made a checkpoint.
type CheckpointKind string

const (
	CheckpointEdit    CheckpointKind = "edit"
	CheckpointCommand CheckpointKind = "command"
	CheckpointRevert  CheckpointKind = "revert"
	CheckpointRewind  CheckpointKind = "rewind"
)

// FileSide is what a path held before or after a checkpoint. Hash "" is a
// file that did not exist.
type FileSide struct {
	Hash string `json:"hash"`
	Mode uint32 `json:"mode"` // io/fs.FileMode bits: permissions, and ModeSymlink for a link
	Size int64  `json:"size"`
	Kept bool   `json:"kept"`
}

// FileEvent is what one checkpoint did to one path.
type FileEvent struct {
	ID           int64    `json:"id"`
	CheckpointID int64    `json:"checkpointId"`
	Path         string   `json:"path"`
	Before       FileSide `json:"before"`
	After        FileSide `json:"after"`
	Why          string   `json:"why,omitempty"` // why some content is not kept
	Undoes       []int64  `json:"undoes,omitempty"`
	UndoneBy     int64    `json:"undoneBy,omitempty"`
	// MadeDirs are the folders (project-relative, '/'-separated, outermost
	// first) that creating the file made. nil: not known; empty: none.
	MadeDirs []string `json:"madeDirs,omitempty"`
	// RunsCode says why the file, as the checkpoint left it, can run code
	// (ledger.RunsCode); "" when it cannot.
	RunsCode string `json:"runsCode,omitempty"`
}

// ListedFile is a file a command changed that the ledger lists but does
// not keep (in a .git folder, ignored, over the per-command limit): shown,
// never reverted.
type ListedFile struct {
	Path     string `json:"path"`
	Op       string `json:"op"`  // created, modified or deleted
	Why      string `json:"why"` // why it is not kept, a few words
	RunsCode string `json:"runsCode,omitempty"`
	Folder   bool   `json:"folder,omitempty"` // a .git folder made, not a file
}

// Checkpoint is one step of the ledger with its file events.
type Checkpoint struct {
	ID         int64          `json:"id"`
	SessionID  int64          `json:"sessionId"`
	ToolCallID int64          `json:"toolCallId,omitempty"` // tool_calls.id
	ToolUseID  string         `json:"toolUseId,omitempty"`  // the model's id of that call
	MessageID  int64          `json:"messageId"`
	Kind       CheckpointKind `json:"kind"`
	Done       bool           `json:"done"`
	Label      string         `json:"label"`
	Note       string         `json:"note,omitempty"`
	Omitted    int            `json:"omitted,omitempty"`
	CreatedAt  time.Time      `json:"createdAt"`
	Files      []FileEvent    `json:"files"`
	// Listed are the files a command changed that the ledger lists but
	// does not keep, by path; nil for none.
	Listed []ListedFile `json:"listed,omitempty"`
}

// Begin records a checkpoint as pending, with its file events,
// before any file is written; the commit is synced to disk before it
// returns. MessageID defaults to the session's latest message. CreatedAt
// defaults to now.
func (s *Checkpoints) Begin(ctx context.Context, c Checkpoint) (Checkpoint, error) {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = s.now()
	}
	err := s.writeDurable(ctx, func(tx *sql.Tx) error {
		if c.MessageID == 0 {
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM messages WHERE session_id = ?`, c.SessionID).Scan(&c.MessageID); err != nil {
				return err
			}
		}
		listed, err := json.Marshal(orNone(c.Listed))
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `
			INSERT INTO checkpoints (session_id, tool_call_id, message_id, kind, label, note, omitted, created_at, listed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.SessionID, nullIfZero(c.ToolCallID), c.MessageID, c.Kind, c.Label, c.Note, c.Omitted, millis(c.CreatedAt), string(listed)).Scan(&c.ID)
		if err != nil {
			return err
		}
		for i := range c.Files {
			f := &c.Files[i]
			f.CheckpointID = c.ID
			undoes, err := json.Marshal(orEmpty(f.Undoes))
			if err != nil {
				return err
			}
			err = tx.QueryRowContext(ctx, `
				INSERT INTO file_events (checkpoint_id, path, before_hash, before_mode, before_size, before_kept,
					after_hash, after_mode, after_size, after_kept, why, undoes, made_dirs, runs_code)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				c.ID, f.Path, f.Before.Hash, f.Before.Mode, f.Before.Size, f.Before.Kept,
				f.After.Hash, f.After.Mode, f.After.Size, f.After.Kept, f.Why, string(undoes), madeDirsColumn(f.MadeDirs), f.RunsCode).Scan(&f.ID)
			if err != nil {
				return fmt.Errorf("file event %s: %w", f.Path, err)
			}
		}
		return nil
	})
	return c, constraint(err)
}

func orEmpty(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

func orNone(files []ListedFile) []ListedFile {
	if files == nil {
		return []ListedFile{}
	}
	return files
}

// Finish settles a pending checkpoint: the events in drop (ids)
// did not happen and are removed, the others are final, and the events
// they undo are marked undone by it. A checkpoint left with no event (and
// no file listed or omitted) is deleted. It reports whether the
// checkpoint remains.
func (s *Checkpoints) Finish(ctx context.Context, id int64, drop []int64) (bool, error) {
	kept := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, e := range drop {
			if _, err := tx.ExecContext(ctx, `DELETE FROM file_events WHERE id = ? AND checkpoint_id = ?`, e, id); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM file_events WHERE checkpoint_id = ?1)
			+ coalesce((SELECT json_array_length(listed) + omitted FROM checkpoints WHERE id = ?1), 0)`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return affected(tx.ExecContext(ctx, `DELETE FROM checkpoints WHERE id = ?`, id))
		}
		kept = true
		if _, err := tx.ExecContext(ctx, `
			UPDATE file_events SET undone_by = ?1
			 WHERE id IN (SELECT u.value FROM file_events e, json_each(e.undoes) u WHERE e.checkpoint_id = ?1)`, id); err != nil {
			return err
		}
		return affected(tx.ExecContext(ctx, `UPDATE checkpoints SET state = 'done' WHERE id = ?`, id))
	})
	if errors.Is(err, ErrNotFound) {
		return false, fmt.Errorf("checkpoint %d: %w", id, ErrNotFound)
	}
	return kept, err
}

const checkpointCols = `c.id, c.session_id, coalesce(c.tool_call_id, 0), coalesce(t.tool_use_id, ''), c.message_id,
	c.kind, c.state = 'done', c.label, c.note, c.omitted, c.created_at, c.listed`

const checkpointFrom = ` FROM checkpoints c LEFT JOIN tool_calls t ON t.id = c.tool_call_id `

// List returns a session's checkpoints with their file events,
// oldest first (pending ones included).
func (s *Checkpoints) List(ctx context.Context, sessionID int64) ([]Checkpoint, error) {
	return s.checkpoints(ctx, `c.session_id = ?`, sessionID)
}

// Get returns one checkpoint with its file events.
func (s *Checkpoints) Get(ctx context.Context, id int64) (Checkpoint, error) {
	cs, err := s.checkpoints(ctx, `c.id = ?`, id)
	if err != nil {
		return Checkpoint{}, err
	}
	if len(cs) == 0 {
		return Checkpoint{}, fmt.Errorf("checkpoint %d: %w", id, ErrNotFound)
	}
	return cs[0], nil
}

// Pending returns every checkpoint a crash left pending.
func (s *Checkpoints) Pending(ctx context.Context) ([]Checkpoint, error) {
	return s.checkpoints(ctx, `c.state = 'pending'`)
}

func (s *Checkpoints) checkpoints(ctx context.Context, where string, args ...any) ([]Checkpoint, error) {
	return read(ctx, s.database, func(tx *sql.Tx) ([]Checkpoint, error) {
		return checkpointsIn(ctx, tx, where, args...)
	})
}

func checkpointsIn(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]Checkpoint, error) {
	cs, err := queryAll(ctx, tx, scanCheckpoint, `SELECT `+checkpointCols+checkpointFrom+` WHERE `+where+` ORDER BY c.id`, args...)
	if err != nil || len(cs) == 0 {
		return cs, err
	}
	byID := make(map[int64]int, len(cs))
	for i, c := range cs {
		byID[c.ID] = i
	}
	fs, err := queryAll(ctx, tx, scanFileEvent, `SELECT `+fileEventCols+` FROM file_events e
		WHERE e.checkpoint_id IN (SELECT c.id FROM checkpoints c WHERE `+where+`) ORDER BY e.checkpoint_id, e.path`, args...)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if i, ok := byID[f.CheckpointID]; ok {
			cs[i].Files = append(cs[i].Files, f)
		}
	}
	return cs, nil
}

func scanCheckpoint(row rowScanner) (Checkpoint, error) {
	var c Checkpoint
	var created int64
	var listed string
	if err := row.Scan(&c.ID, &c.SessionID, &c.ToolCallID, &c.ToolUseID, &c.MessageID, &c.Kind, &c.Done,
		&c.Label, &c.Note, &c.Omitted, &created, &listed); err != nil {
		return Checkpoint{}, err
	}
	c.CreatedAt = fromMillis(created)
	if listed != "[]" {
		if err := json.Unmarshal([]byte(listed), &c.Listed); err != nil {
			return Checkpoint{}, fmt.Errorf("checkpoint %d listed: %w", c.ID, err)
		}
	}
	return c, nil
}

const fileEventCols = `e.id, e.checkpoint_id, e.path, e.before_hash, e.before_mode, e.before_size, e.before_kept,
	e.after_hash, e.after_mode, e.after_size, e.after_kept, e.why, e.undoes, coalesce(e.undone_by, 0), e.made_dirs, e.runs_code`

// madeDirsColumn is FileEvent.MadeDirs as stored: NULL when not known,
// else the folders one per line.
func madeDirsColumn(dirs []string) any {
	if dirs == nil {
		return nil
	}
	return strings.Join(dirs, "\n")
}

func scanFileEvent(row rowScanner) (FileEvent, error) {
	var f FileEvent
	var undoes string
	var dirs sql.NullString
	if err := row.Scan(&f.ID, &f.CheckpointID, &f.Path, &f.Before.Hash, &f.Before.Mode, &f.Before.Size, &f.Before.Kept,
		&f.After.Hash, &f.After.Mode, &f.After.Size, &f.After.Kept, &f.Why, &undoes, &f.UndoneBy, &dirs, &f.RunsCode); err != nil {
		return FileEvent{}, err
	}
	if dirs.Valid {
		f.MadeDirs = []string{}
		if dirs.String != "" {
			f.MadeDirs = strings.Split(dirs.String, "\n")
		}
	}
	if err := json.Unmarshal([]byte(undoes), &f.Undoes); err != nil {
		return FileEvent{}, fmt.Errorf("file event %d undoes: %w", f.ID, err)
	}
	if len(f.Undoes) == 0 {
		f.Undoes = nil
	}
	return f, nil
}

// AddPendingNote adds a line to what the model is told on the session's
// next turn.
func (s *Sessions) AddPendingNote(ctx context.Context, sessionID int64, line string) error {
	return s.updateSession(ctx, sessionID, `pending_note = CASE WHEN pending_note = '' THEN ?1 ELSE pending_note || char(10) || ?1 END`, line)
}

// TakePendingNote returns the session's pending note and clears it.
func (s *Sessions) TakePendingNote(ctx context.Context, sessionID int64) (string, error) {
	var note string
	err := s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT pending_note FROM sessions WHERE id = ?`, sessionID).Scan(&note)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("session %d: %w", sessionID, ErrNotFound)
		}
		if err != nil || note == "" {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET pending_note = '' WHERE id = ?`, sessionID)
		return err
	})
	return note, err
}

// BlobRef is a stored content one file event of a project refers to.
type BlobRef struct {
	EventID   int64
	SessionID int64
	Hash      string
	Before    bool // the event's before side (else its after side)
	// SessionUpdated orders retention: the oldest sessions' content goes first.
	SessionUpdated time.Time
}

// BlobRefs returns every kept content the ledger of a project refers to,
// or of every project when projectID is 0.
func (s *Checkpoints) BlobRefs(ctx context.Context, projectID int64) ([]BlobRef, error) {
	where := ""
	args := []any{}
	if projectID != 0 {
		where = ` AND s.project_id = ?`
		args = append(args, projectID)
	}
	return queryAll(ctx, s.r, func(row rowScanner) (BlobRef, error) {
		var r BlobRef
		var updated int64
		err := row.Scan(&r.EventID, &r.SessionID, &r.Hash, &r.Before, &updated)
		r.SessionUpdated = fromMillis(updated)
		return r, err
	}, `
		SELECT e.id, c.session_id, e.before_hash, 1, s.updated_at FROM file_events e
		  JOIN checkpoints c ON c.id = e.checkpoint_id JOIN sessions s ON s.id = c.session_id
		 WHERE e.before_hash <> '' AND e.before_kept`+where+`
		UNION ALL
		SELECT e.id, c.session_id, e.after_hash, 0, s.updated_at FROM file_events e
		  JOIN checkpoints c ON c.id = e.checkpoint_id JOIN sessions s ON s.id = c.session_id
		 WHERE e.after_hash <> '' AND e.after_kept`+where, append(args, args...)...)
}

// DropContent marks the content of these sessions' file events as no
// longer kept, with why, so the ledger still lists them but they can no
// longer be restored.
func (s *Checkpoints) DropContent(ctx context.Context, sessionIDs []int64, why string) error {
	if len(sessionIDs) == 0 {
		return nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(sessionIDs)), ",")
	args := []any{why}
	for _, id := range sessionIDs {
		args = append(args, id)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE file_events SET before_kept = 0, after_kept = 0, why = ?
			WHERE (before_kept OR after_kept) AND checkpoint_id IN (SELECT id FROM checkpoints WHERE session_id IN (`+marks+`))`, args...)
		return err
	})
}

// LastBefore returns the id of the session's message just before
// messageID (0 when it is the first), checking that messageID is a user
// message of that session.
func (s *Messages) LastBefore(ctx context.Context, sessionID, messageID int64) (int64, error) {
	var role string
	var seq int64
	err := s.r.QueryRowContext(ctx, `SELECT role, seq FROM messages WHERE id = ? AND session_id = ?`, messageID, sessionID).Scan(&role, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("message %d of session %d: %w", messageID, sessionID, ErrNotFound)
	}
	if err != nil {
		return 0, err
	}
	if role != "user" {
		return 0, fmt.Errorf("message %d is not a user message: %w", messageID, ErrInvalid)
	}
	var prev int64
	err = s.r.QueryRowContext(ctx, `SELECT coalesce((SELECT id FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1), 0)`, sessionID, seq).Scan(&prev)
	return prev, err
}

// Snippet is the first line of a message's text, cut to 60
// characters: how a rewind names the message it went back to.
func (s *Messages) Snippet(ctx context.Context, id int64) (string, error) {
	var content string
	err := s.r.QueryRowContext(ctx, `SELECT content FROM messages WHERE id = ?`, id).Scan(&content)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("message %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return "", err
	}
	var blocks []llm.ContentBlock
	if err := decodeBlocks(content, &blocks); err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(llm.JoinText(blocks)), "\n")
	if r := []rune(line); len(r) > 60 {
		line = string(r[:59]) + "…"
	}
	return line, nil
}
