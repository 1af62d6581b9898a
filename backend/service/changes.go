package service

import (
	"context"

	"pilot/backend/wire"
)

// changeLog is the set of files the active session changed (from its
// ledger), so the file tree can mark them. The Service's mutex guards it.
type changeLog struct {
	active  int64               // the session the window shows
	changed map[string]struct{} // relative paths whose net effect is not nil
}

// isChanged reports whether the active session changed rel.
func (c *changeLog) isChanged(rel string) bool {
	_, ok := c.changed[rel]
	return ok
}

// setActive makes sessionID the session whose changes the tree marks.
func (w *Service) setActive(sessionID int64) {
	w.mu.Lock()
	w.changes.active = sessionID
	w.mu.Unlock()
	w.refreshChanged(sessionID)
}

// refreshChanged reads the ledger of sessionID again if it is the active
// session.
func (w *Service) refreshChanged(sessionID int64) {
	v, err := w.ledger.View(context.Background(), sessionID)
	if err != nil {
		w.log.Warn("reading the ledger", "session", sessionID, "err", err)
		return
	}
	set := map[string]struct{}{}
	for _, f := range v.Files {
		if f.Kind != "" && f.Kind != wire.OpDeleted {
			set[f.Path] = struct{}{}
		}
	}
	w.mu.Lock()
	if w.changes.active == sessionID {
		w.changes.changed = set
	}
	w.mu.Unlock()
}
