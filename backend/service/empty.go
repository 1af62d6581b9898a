package service

import (
	"context"
	"time"
)

// Empty sessions. The window needs a session's id before its first
// message (session-new opens an empty session at once), so a session row
// is created then; but a session nobody wrote in is not kept. A session
// this service created is deleted once the user leaves it (opens another
// session or starts a new one) with no message saved in it: that covers a
// first message that was refused (no key, too big). Empty sessions older
// than leftoverAge (a crash, an older Pilot) are deleted at start-up.
// Sessions of other processes (a `pilot repl` waiting for its first line)
// are never touched while they are young; `pilot -p` and `pilot repl`
// delete their own empty session when they end.
const leftoverAge = 24 * time.Hour

// created notes a session this service made, empty until its first
// message.
func (w *Service) created(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fresh == nil {
		w.fresh = map[int64]bool{}
	}
	w.fresh[id] = true
}

// dropEmpty deletes the sessions this service created that are still
// empty and not running, except keep. It reports whether it deleted any.
func (w *Service) dropEmpty(ctx context.Context, keep int64) bool {
	w.mu.Lock()
	ids := make([]int64, 0, len(w.fresh))
	for id := range w.fresh {
		if id != keep {
			ids = append(ids, id)
		}
	}
	w.mu.Unlock()
	if len(ids) == 0 {
		return false
	}
	// A worktree session never written in goes with the headless run
	// that made it (a retry may use its name); the window keeps it listed
	// until the user deletes or discards it.
	empty, err := w.store.Sessions.Empty(ctx, 0, time.Time{}, w.headless)
	if err != nil {
		w.log.Warn("listing empty sessions", "err", err)
		return false
	}
	isEmpty := map[int64]bool{}
	for _, id := range empty {
		isEmpty[id] = true
	}
	dropped := false
	for _, id := range ids {
		if w.agent.Running(id) {
			continue
		}
		if isEmpty[id] {
			if err := w.deleteSession(ctx, id); err != nil {
				w.log.Warn("deleting an empty session", "session", id, "err", err)
				continue
			}
			dropped = true
		}
		w.mu.Lock()
		delete(w.fresh, id)
		w.mu.Unlock()
	}
	return dropped
}

// dropLeftovers deletes empty sessions older than leftoverAge.
func (w *Service) dropLeftovers(ctx context.Context) {
	ids, err := w.store.Sessions.Empty(ctx, 0, time.Now().Add(-leftoverAge), false)
	if err != nil {
		w.log.Warn("listing empty sessions", "err", err)
		return
	}
	for _, id := range ids {
		if err := w.deleteSession(ctx, id); err != nil {
			w.log.Warn("deleting an empty session", "session", id, "err", err)
		}
	}
	if len(ids) > 0 {
		w.log.Info("deleted empty sessions left over", "count", len(ids))
	}
}
