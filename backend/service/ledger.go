package service

import (
	"context"
	"errors"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/present"
	"pilot/backend/wire"
)

// Ledger is the change ledger of a session: its changes, their diffs and
// restores.
type Ledger struct{ *core }

// ErrTurnRunning: files cannot be restored while the session's turn runs.
var ErrTurnRunning = errors.New("the agent is still working in this session: stop it (Stop button or Esc) before reverting or rewinding")

// Get returns everything a session changed.
func (l *Ledger) Get(ctx context.Context, sessionID int64) (wire.Ledger, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.Ledger{}, err
	}
	return l.ledger.View(ctx, sessionID)
}

// FileDiff is a file's cumulative diff over a session.
func (l *Ledger) FileDiff(ctx context.Context, sessionID int64, path string) (wire.FileDiff, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.FileDiff{}, err
	}
	return l.ledger.FileDiff(ctx, sessionID, path)
}

// CheckpointDiff is what one checkpoint did to one file.
func (l *Ledger) CheckpointDiff(ctx context.Context, checkpointID int64, path string) (wire.FileDiff, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.FileDiff{}, err
	}
	return l.ledger.CheckpointDiff(ctx, checkpointID, path)
}

// ChangeDetail is a file change's card expanded.
func (l *Ledger) ChangeDetail(ctx context.Context, sessionID int64, toolCallID string) (wire.ChangeDetail, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.ChangeDetail{}, err
	}
	return l.ledger.ChangeDetail(ctx, sessionID, toolCallID)
}

// RevertCheckpoint undoes one change or command.
func (l *Ledger) RevertCheckpoint(ctx context.Context, checkpointID int64, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	cp, err := l.store.Checkpoints.Get(ctx, checkpointID)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	return l.restore(ctx, cp.SessionID, func() (wire.RestoreResult, error) {
		return l.ledger.RevertCheckpointFor(ctx, checkpointID, in)
	})
}

// RevertFile puts one file back to before the session changed it.
func (l *Ledger) RevertFile(ctx context.Context, sessionID int64, path string, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	return l.restore(ctx, sessionID, func() (wire.RestoreResult, error) {
		return l.ledger.RevertFileFor(ctx, sessionID, path, in)
	})
}

// Rewind restores files, conversation or both to just before a user message.
func (l *Ledger) Rewind(ctx context.Context, sessionID, messageID int64, mode string, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := l.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	return l.restore(ctx, sessionID, func() (wire.RestoreResult, error) {
		return l.ledger.RewindSession(ctx, sessionID, messageID, wire.RewindMode(mode), in)
	})
}

// restore runs a revert or rewind of a session that is not running a turn,
// then tells the window its ledger changed.
func (l *Ledger) restore(ctx context.Context, sessionID int64, run func() (wire.RestoreResult, error)) (wire.RestoreResult, error) {
	if s := l.agent.State(sessionID); s != agent.Idle && s != agent.Error {
		return wire.RestoreResult{}, ErrTurnRunning
	}
	res, err := run()
	if err != nil {
		l.log.Error("restoring files", "session", sessionID, "err", err)
		return res, err
	}
	if res.CheckpointID != 0 {
		l.publish(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: sessionID})
	}
	if res.SessionID != sessionID {
		if s, err := l.store.Sessions.Get(ctx, res.SessionID); err == nil {
			l.publish(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
		}
	}
	return res, nil
}

// enforceRetention keeps the checkpoints of the project in dir under the
// retention setting.
func (l *Ledger) enforceRetention(dir string) {
	if dir == "" {
		return
	}
	ctx := context.Background()
	p, err := l.store.Projects.ByPath(ctx, dir)
	if err != nil {
		return
	}
	s, err := config.LoadSettings(l.home)
	if err != nil && !isCorrupt(err) {
		l.log.Warn("reading the retention setting", "err", err)
	}
	if freed, err := l.ledger.Enforce(ctx, p.ID, int64(s.RetentionMB())<<20); err != nil {
		l.log.Error("checkpoint retention", "project", dir, "err", err)
	} else if freed > 0 {
		l.log.Info("checkpoint retention", "project", dir, "freed", freed)
	}
}
