package workspace

import (
	"pilot/backend/approval"
	"pilot/backend/events"
)

// changeLog remembers which files approved changes touched, per session, so
// the file tree can mark the files changed in the session on screen. It
// learns from the events the agent emits; the Workspace's mutex guards it.
type changeLog struct {
	active  int64                         // the session the window shows
	pending map[string]events.Approval    // approval id → change awaiting a decision
	changed map[int64]map[string]struct{} // session → relative paths
}

func (c *changeLog) observe(name string, payload any) {
	switch p := payload.(type) {
	case events.ApprovalPayload:
		if p.Approval.Kind == "change" {
			if c.pending == nil {
				c.pending = map[string]events.Approval{}
			}
			c.pending[p.Approval.ID] = p.Approval
		}
	case events.ApprovalDonePayload:
		a, ok := c.pending[p.ApprovalID]
		if !ok {
			return
		}
		delete(c.pending, p.ApprovalID)
		switch p.Outcome {
		case approval.Approved, approval.Partial, approval.Edited:
			if c.changed == nil {
				c.changed = map[int64]map[string]struct{}{}
			}
			if c.changed[p.SessionID] == nil {
				c.changed[p.SessionID] = map[string]struct{}{}
			}
			for _, path := range a.Paths {
				c.changed[p.SessionID][path] = struct{}{}
			}
		}
	}
}

// isChanged reports whether the active session changed rel.
func (c *changeLog) isChanged(rel string) bool {
	_, ok := c.changed[c.active][rel]
	return ok
}

func (w *Workspace) setActive(sessionID int64) {
	w.mu.Lock()
	w.changes.active = sessionID
	w.mu.Unlock()
}
