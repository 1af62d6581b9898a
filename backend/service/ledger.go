package service

import (
	"context"
	"errors"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/present"
	"pilot/backend/wire"
)

// ErrTurnRunning: files cannot be restored while the session's turn runs.
var ErrTurnRunning = errors.New("the agent is still working in this session: stop it (Stop button or Esc) before reverting or rewinding")

// GetLedger returns everything a session changed.
func (w *Service) GetLedger(ctx context.Context, sessionID int64) (wire.Ledger, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.Ledger{}, err
	}
	return w.ledger.View(ctx, sessionID)
}

// GetFileDiff is a file's cumulative diff over a session.
func (w *Service) GetFileDiff(ctx context.Context, sessionID int64, path string) (wire.FileDiff, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.FileDiff{}, err
	}
	return w.ledger.FileDiff(ctx, sessionID, path)
}

// GetCheckpointDiff is what one checkpoint did to one file.
func (w *Service) GetCheckpointDiff(ctx context.Context, checkpointID int64, path string) (wire.FileDiff, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.FileDiff{}, err
	}
	return w.ledger.CheckpointDiff(ctx, checkpointID, path)
}

// GetChangeDetail is a file change's card expanded.
func (w *Service) GetChangeDetail(ctx context.Context, sessionID int64, toolCallID string) (wire.ChangeDetail, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.ChangeDetail{}, err
	}
	return w.ledger.ChangeDetail(ctx, sessionID, toolCallID)
}

// RevertCheckpoint undoes one change or command.
func (w *Service) RevertCheckpoint(ctx context.Context, checkpointID int64, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	cp, err := w.store.Checkpoints.Get(ctx, checkpointID)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	return w.restore(ctx, cp.SessionID, func() (wire.RestoreResult, error) {
		return w.ledger.RevertCheckpointFor(ctx, checkpointID, in)
	})
}

// RevertFile puts one file back to before the session changed it.
func (w *Service) RevertFile(ctx context.Context, sessionID int64, path string, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	return w.restore(ctx, sessionID, func() (wire.RestoreResult, error) {
		return w.ledger.RevertFileFor(ctx, sessionID, path, in)
	})
}

// Rewind restores files, conversation or both to just before a user message.
func (w *Service) Rewind(ctx context.Context, sessionID, messageID int64, mode string, in wire.RestoreInput) (wire.RestoreResult, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.RestoreResult{}, err
	}
	return w.restore(ctx, sessionID, func() (wire.RestoreResult, error) {
		return w.ledger.RewindSession(ctx, sessionID, messageID, wire.RewindMode(mode), in)
	})
}

// restore runs a revert or rewind of a session that is not running a turn,
// then tells the window its ledger changed.
func (w *Service) restore(ctx context.Context, sessionID int64, run func() (wire.RestoreResult, error)) (wire.RestoreResult, error) {
	if s := w.agent.State(sessionID); s != agent.Idle && s != agent.Error {
		return wire.RestoreResult{}, ErrTurnRunning
	}
	res, err := run()
	if err != nil {
		w.log.Error("restoring files", "session", sessionID, "err", err)
		return res, err
	}
	if res.CheckpointID != 0 {
		w.Emit(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: sessionID})
	}
	if res.SessionID != sessionID {
		if s, err := w.store.Sessions.Get(ctx, res.SessionID); err == nil {
			w.Emit(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
		}
	}
	return res, nil
}

// enforceRetention keeps the checkpoints of the project in dir under the
// retention setting.
func (w *Service) enforceRetention(dir string) {
	if dir == "" {
		return
	}
	ctx := context.Background()
	p, err := w.store.Projects.ByPath(ctx, dir)
	if err != nil {
		return
	}
	s, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		w.log.Warn("reading the retention setting", "err", err)
	}
	if freed, err := w.ledger.Enforce(ctx, p.ID, int64(s.RetentionMB())<<20); err != nil {
		w.log.Error("checkpoint retention", "project", dir, "err", err)
	} else if freed > 0 {
		w.log.Info("checkpoint retention", "project", dir, "freed", freed)
	}
}
