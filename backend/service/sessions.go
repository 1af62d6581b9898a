package service

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"pilot/backend/present"
	"pilot/backend/wire"
)

// ListSessions returns a page of the project's sessions, newest first.
func (w *Service) ListSessions(ctx context.Context, projectID int64, limit, offset int) ([]wire.SessionSummary, error) {
	if err := w.waitStarted(ctx); err != nil {
		return nil, err
	}
	ss, err := w.store.Sessions.List(ctx, projectID, limit, offset)
	if err != nil {
		return nil, err
	}
	return w.presentSessions(ss), nil
}

// RenameSession sets a session's title.
func (w *Service) RenameSession(ctx context.Context, id int64, title string) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	title = strings.TrimSpace(title)
	if title == "" {
		return fmt.Errorf("a session title cannot be empty")
	}
	if err := w.store.Sessions.Rename(ctx, id, title); err != nil {
		return err
	}
	w.sessionUpdated(ctx, id)
	return nil
}

// DeleteSession removes a session and everything under it. A running turn
// is cancelled first, and the session's sandbox ended; a worktree
// session's worktree and branch are removed with it.
func (w *Service) DeleteSession(ctx context.Context, id int64) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	_ = w.CancelTurn(id)
	w.agent.Release(id)
	return w.deleteSession(ctx, id)
}

// ForkSession copies a session up to and including messageID.
func (w *Service) ForkSession(ctx context.Context, id, messageID int64) (wire.SessionSummary, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	s, err := w.store.Sessions.Fork(ctx, id, messageID)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return present.Session(s), nil
}

// ExportSession renders a session as Markdown ("md") or JSON ("json").
func (w *Service) ExportSession(ctx context.Context, id int64, format string) (string, error) {
	if err := w.waitStarted(ctx); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	var err error
	switch format {
	case "md":
		err = w.store.WriteMarkdown(ctx, id, &buf)
	case "json":
		err = w.store.WriteJSON(ctx, id, &buf)
	default:
		return "", fmt.Errorf("unknown export format %q: use md or json", format)
	}
	return buf.String(), err
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ExportFileName suggests a file name for an export.
func (w *Service) ExportFileName(ctx context.Context, id int64, format string) (string, error) {
	s, err := w.store.Sessions.Get(ctx, id)
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
func (w *Service) WriteExport(ctx context.Context, id int64, format, path string) error {
	text, err := w.ExportSession(ctx, id, format)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// SearchSessions runs a full-text search over the project's sessions.
func (w *Service) SearchSessions(ctx context.Context, projectID int64, query string) ([]wire.SearchHit, error) {
	if err := w.waitStarted(ctx); err != nil {
		return nil, err
	}
	hits, err := w.store.Search(ctx, projectID, query, 50)
	if err != nil {
		return nil, err
	}
	out := make([]wire.SearchHit, len(hits))
	for i, h := range hits {
		out[i] = present.SearchHit(h)
	}
	return out, nil
}

// sessionUpdated tells the window a session's summary changed.
func (w *Service) sessionUpdated(ctx context.Context, id int64) {
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		w.log.Warn("session update not sent", "session", id, "err", err)
		return
	}
	w.Emit(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
}
