package agent

import (
	"context"
	"fmt"

	"pilot/backend/llm"
)

// Retry runs the session's failed turn again from where it failed: the
// saved history, which ends with the user's message or the last tool
// results, is sent again; nothing is added to it. It fails with
// ErrNothingToRetry when the history ends with an answer.
func (m *Manager) Retry(ctx context.Context, sessionID int64) error {
	l, tctx, err := m.beginIn(ctx, sessionID)
	if err != nil {
		return err
	}
	if err := m.retryable(ctx, sessionID); err != nil {
		l.mu.Lock()
		l.cancel()
		l.cancel = nil
		l.mu.Unlock()
		m.turns.Done()
		return err
	}
	go func() {
		defer m.turns.Done()
		l.run(tctx, nil)
	}()
	return nil
}

// beginIn marks the session's turn running (begin), once the session is
// known and not discarded.
func (m *Manager) beginIn(ctx context.Context, sessionID int64) (*live, context.Context, error) {
	if err := m.notDiscarded(ctx, sessionID); err != nil {
		return nil, nil, err
	}
	l, err := m.live(ctx, sessionID)
	if err != nil {
		return nil, nil, err
	}
	tctx, err := m.begin(l)
	if err != nil {
		return nil, nil, err
	}
	return l, tctx, nil
}

// retryable reports whether the session's history waits for the model.
func (m *Manager) retryable(ctx context.Context, sessionID int64) error {
	if _, err := m.st.Sessions.Repair(ctx, sessionID); err != nil {
		return fmt.Errorf("repairing the session: %w", err)
	}
	msgs, err := m.st.Messages.List(ctx, sessionID)
	if err != nil {
		return err
	}
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != llm.RoleUser {
		return ErrNothingToRetry
	}
	return nil
}
