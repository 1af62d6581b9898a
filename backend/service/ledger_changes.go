package service

import (
	"context"
	"path/filepath"

	"pilot/backend/wire"
)

// changeLog is the set of files the active session changed (from its
// ledger), so the file tree can mark them in the folder the session works
// in. The Service's mutex guards it.
type changeLog struct {
	active  int64               // the session the window shows
	root    string              // the folder it works in, symbolic links resolved ("": unknown)
	changed map[string]struct{} // relative paths (to root) whose net effect is not nil
}

// isChanged reports whether the active session changed rel.
func (c *changeLog) isChanged(rel string) bool {
	_, ok := c.changed[rel]
	return ok
}

// setActive makes sessionID the session whose changes the tree marks.
func (l *Ledger) setActive(sessionID int64) {
	l.mu.Lock()
	l.changes.active = sessionID
	l.mu.Unlock()
	l.refreshChanged(sessionID)
}

// refreshChanged reads the ledger of sessionID again if it is the active
// session.
func (l *Ledger) refreshChanged(sessionID int64) {
	v, err := l.ledger.View(context.Background(), sessionID)
	if err != nil {
		l.log.Warn("reading the ledger", "session", sessionID, "err", err)
		return
	}
	set := map[string]struct{}{}
	for _, f := range v.Files {
		if f.Kind != "" && f.Kind != wire.OpDeleted {
			set[f.Path] = struct{}{}
		}
	}
	root := l.activeRoot(sessionID)
	l.mu.Lock()
	if l.changes.active == sessionID {
		l.changes.changed = set
		l.changes.root = root
	}
	l.mu.Unlock()
}

// activeRoot is the folder sessionID works in with symbolic links
// resolved, as the file tree's listings name it; "" when it cannot be
// known (no marks are shown then).
func (l *Ledger) activeRoot(sessionID int64) string {
	ctx := context.Background()
	s, err := l.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return ""
	}
	dir, err := l.viewPath(ctx, s.ProjectID, sessionID)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	return real
}
