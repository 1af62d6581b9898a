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
func (se *Sessions) created(id int64) {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.fresh == nil {
		se.fresh = map[int64]bool{}
	}
	se.fresh[id] = true
}

// dropEmpty deletes the sessions this service created that are still
// empty and not running, except keep. It reports whether it deleted any.
func (se *Sessions) dropEmpty(ctx context.Context, keep int64) bool {
	se.mu.Lock()
	ids := make([]int64, 0, len(se.fresh))
	for id := range se.fresh {
		if id != keep {
			ids = append(ids, id)
		}
	}
	se.mu.Unlock()
	if len(ids) == 0 {
		return false
	}
	// A worktree session never written in goes with the headless run
	// that made it (a retry may use its name); the window keeps it listed
	// until the user deletes or discards it.
	empty, err := se.store.Sessions.Empty(ctx, 0, time.Time{}, se.headless)
	if err != nil {
		se.log.Warn("listing empty sessions", "err", err)
		return false
	}
	isEmpty := map[int64]bool{}
	for _, id := range empty {
		isEmpty[id] = true
	}
	dropped := false
	for _, id := range ids {
		if se.agent.Running(id) {
			continue
		}
		if isEmpty[id] {
			if err := se.delete(ctx, id); err != nil {
				se.log.Warn("deleting an empty session", "session", id, "err", err)
				continue
			}
			dropped = true
		}
		se.mu.Lock()
		delete(se.fresh, id)
		se.mu.Unlock()
	}
	return dropped
}

// dropLeftovers deletes empty sessions older than leftoverAge.
func (se *Sessions) dropLeftovers(ctx context.Context) {
	ids, err := se.store.Sessions.Empty(ctx, 0, time.Now().Add(-leftoverAge), false)
	if err != nil {
		se.log.Warn("listing empty sessions", "err", err)
		return
	}
	for _, id := range ids {
		if err := se.delete(ctx, id); err != nil {
			se.log.Warn("deleting an empty session", "session", id, "err", err)
		}
	}
	if len(ids) > 0 {
		se.log.Info("deleted empty sessions left over", "count", len(ids))
	}
}
