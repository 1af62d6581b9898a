package service

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"pilot/backend/config"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Sessions are the sessions of the projects: listed, created, resumed,
// renamed, forked, exported, their page and mode.
type Sessions struct{ *core }

// List returns a page of the project's sessions, newest first.
func (se *Sessions) List(ctx context.Context, projectID int64, limit, offset int) ([]wire.SessionSummary, error) {
	if err := se.waitStarted(ctx); err != nil {
		return nil, err
	}
	ss, err := se.store.Sessions.List(ctx, projectID, limit, offset)
	if err != nil {
		return nil, err
	}
	return se.present(ss), nil
}

// Rename sets a session's title.
func (se *Sessions) Rename(ctx context.Context, id int64, title string) error {
	if err := se.waitStarted(ctx); err != nil {
		return err
	}
	title = strings.TrimSpace(title)
	if title == "" {
		return fmt.Errorf("a session title cannot be empty")
	}
	if err := se.store.Sessions.Rename(ctx, id, title); err != nil {
		return err
	}
	se.updated(ctx, id)
	return nil
}

// Delete removes a session and everything under it. A running turn
// is cancelled first, and the session's sandbox ended; a worktree
// session's worktree and branch are removed with it.
func (se *Sessions) Delete(ctx context.Context, id int64) error {
	if err := se.waitStarted(ctx); err != nil {
		return err
	}
	_ = se.svc.Turns.Cancel(id)
	se.agent.Release(id)
	return se.delete(ctx, id)
}

// Fork copies a session up to and including messageID.
func (se *Sessions) Fork(ctx context.Context, id, messageID int64) (wire.SessionSummary, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	s, err := se.store.Sessions.Fork(ctx, id, messageID)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return present.Session(s), nil
}

// Export renders a session as Markdown ("md") or JSON ("json").
func (se *Sessions) Export(ctx context.Context, id int64, format string) (string, error) {
	if err := se.waitStarted(ctx); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "md":
		err = se.store.WriteMarkdown(ctx, id, &buf)
	case "json":
		err = se.store.WriteJSON(ctx, id, &buf)
	default:
		return "", fmt.Errorf("unknown export format %q: use md or json", format)
	}
	return buf.String(), err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ExportFileName suggests a file name for an export.
func (se *Sessions) ExportFileName(ctx context.Context, id int64, format string) (string, error) {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return "", err
	}
	base := strings.Trim(unsafeName.ReplaceAllString(s.Title, "-"), "-")
	if base == "" {
		base = fmt.Sprintf("session-%d", id)
	}
	return base + "." + format, nil
}

// WriteExport writes an export to path.
func (se *Sessions) WriteExport(ctx context.Context, id int64, format, path string) error {
	text, err := se.Export(ctx, id, format)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// Search runs a full-text search over the project's sessions.
func (se *Sessions) Search(ctx context.Context, projectID int64, query string) ([]wire.SearchHit, error) {
	if err := se.waitStarted(ctx); err != nil {
		return nil, err
	}
	hits, err := se.store.Search(ctx, projectID, query, 50)
	return views(hits, err, present.SearchHit)
}

// updated tells the window a session's summary changed.
func (se *Sessions) updated(ctx context.Context, id int64) {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		se.log.Warn("session update not sent", "session", id, "err", err)
		return
	}
	se.publish(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
}

// Title names a session for a notification or a question: its
// title ("Untitled session" before it has one, as the session list says),
// and the branch of a worktree session, "Fix the parser (pilot/parser)".
// "" when the session cannot be read.
func (se *Sessions) Title(ctx context.Context, id int64) string {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return ""
	}
	name := s.Title
	if name == "" {
		name = "Untitled session"
	}
	if s.Worktree.Branch != "" {
		name += " (" + s.Worktree.Branch + ")"
	}
	return name
}

// Project is the folder of a session's project.
func (se *Sessions) Project(ctx context.Context, id int64) (string, error) {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return "", err
	}
	p, err := se.store.Projects.Get(ctx, s.ProjectID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// defaultMode is the approval mode Settings names, else ask.
func (se *Sessions) defaultMode() string {
	if s, err := config.LoadSettings(se.home); err == nil {
		switch s.ApprovalMode {
		case config.ApproveAsk, config.ApproveEdits, config.ApproveAll, config.ApproveNone:
			return s.ApprovalMode
		}
	}
	return config.ApproveAsk
}

// delete deletes a session and, for a worktree session, its
// worktree and branch first: a deleted session leaves no worktree behind,
// unless another session (a fork) still works in it.
func (se *Sessions) delete(ctx context.Context, id int64) error {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return err
	}
	sharing, err := se.svc.Worktrees.sharing(ctx, s)
	if err != nil {
		return err
	}
	if len(sharing) == 0 {
		if err := se.svc.Worktrees.remove(ctx, s); err != nil {
			return err
		}
	}
	return se.store.Sessions.Delete(ctx, id)
}

// present presents stored sessions for a list: with the runs other
// processes hold, and a session the store says is running that no process
// runs (its process was killed before it could say) as interrupted.
func (se *Sessions) present(ss []store.Session) []wire.SessionSummary {
	runs := se.elsewhere.runs()
	out := make([]wire.SessionSummary, len(ss))
	for i, s := range ss {
		out[i] = se.presentWith(s, runs)
	}
	return out
}

func (se *Sessions) presentWith(s store.Session, runs map[int64]wire.ElsewhereRun) wire.SessionSummary {
	v := present.Session(s)
	if run, ok := runs[s.ID]; ok {
		v.Elsewhere = &run
	} else if v.State == wire.SessionRunning && !se.agent.Running(s.ID) {
		v.State = wire.SessionInterrupted
	}
	return v
}

// summary is one session presented as present does.
func (se *Sessions) summary(ctx context.Context, id int64) (wire.SessionSummary, error) {
	s, err := se.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return se.presentWith(s, se.elsewhere.runs()), nil
}
