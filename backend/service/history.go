package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"pilot/backend/config"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// The session history as the command line reads it (pilot sessions):
// full stored records rather than the window's summaries, and projects
// named by folder rather than opened.

// FindProject returns the project of the folder dir without opening it:
// dir as given (made absolute) or, failing that, its link-free form (the
// form projects are opened by). It returns an error wrapping ErrNotFound
// when the folder was never opened in Pilot.
func (w *Service) FindProject(ctx context.Context, dir string) (wire.Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return wire.Project{}, err
	}
	p, err := w.store.Projects.ByPath(ctx, abs)
	if resolved, rerr := filepath.EvalSymlinks(abs); errors.Is(err, store.ErrNotFound) && rerr == nil && resolved != abs {
		p, err = w.store.Projects.ByPath(ctx, resolved)
	}
	if err != nil {
		return wire.Project{}, err
	}
	return present.Project(p), nil
}

// AddProject remembers the folder dir as opened, as the window opens it
// (absolute, links resolved, and it must be a folder), without making it
// the open project or starting its MCP servers.
func (w *Service) AddProject(ctx context.Context, dir string) (wire.Project, error) {
	abs, err := ProjectPath(dir)
	if err != nil {
		return wire.Project{}, err
	}
	p, err := w.store.Projects.Touch(ctx, abs)
	if err != nil {
		return wire.Project{}, err
	}
	return present.Project(p), nil
}

// SessionRecords returns every session of a project, newest first, with
// all its stored fields.
func (w *Service) SessionRecords(ctx context.Context, projectID int64) ([]wire.SessionRecord, error) {
	ss, err := w.store.Sessions.List(ctx, projectID, 0, 0)
	if err != nil {
		return nil, err
	}
	out := make([]wire.SessionRecord, len(ss))
	for i, s := range ss {
		out[i] = sessionRecord(s)
	}
	return out, nil
}

// SessionRecord returns one session with all its stored fields; the
// error wraps ErrNotFound when there is no such session.
func (w *Service) SessionRecord(ctx context.Context, id int64) (wire.SessionRecord, error) {
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionRecord{}, err
	}
	return sessionRecord(s), nil
}

// SessionMessageIDs returns the ids of a session's messages in
// conversation order (message i+1 of the session, as a person counts).
func (w *Service) SessionMessageIDs(ctx context.Context, id int64) ([]int64, error) {
	ms, err := w.store.Messages.List(ctx, id)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids, nil
}

// SearchRecords runs the full-text search of SearchSessions, best hit
// first, with the snippet as plain text between the store's marks and
// each hit's score.
func (w *Service) SearchRecords(ctx context.Context, projectID int64, query string) ([]wire.SearchRecord, error) {
	hits, err := w.store.Search(ctx, projectID, query, 50)
	if err != nil {
		return nil, err
	}
	out := make([]wire.SearchRecord, len(hits))
	for i, h := range hits {
		out[i] = searchRecord(h)
	}
	return out, nil
}

// SessionTranscript returns a session with every message, tool call and
// change, as of one moment.
func (w *Service) SessionTranscript(ctx context.Context, id int64) (wire.Transcript, error) {
	t, err := w.store.Sessions.Transcript(ctx, id)
	if err != nil {
		return wire.Transcript{}, err
	}
	return transcript(t), nil
}

// ImportSession adds the session of a JSON export (ExportSession's
// "json") read from file to the project at dir, which is remembered as
// opened if it was not yet. The session comes in at the user's default
// approval mode (Settings, else ask), never at the mode the file names:
// an export carries no authority.
func (w *Service) ImportSession(ctx context.Context, dir, file string) (wire.SessionRecord, wire.Project, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs) // the form the window opens projects by
	}
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, fmt.Errorf("the project folder %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return wire.SessionRecord{}, wire.Project{}, fmt.Errorf("the project folder %s is not a folder", abs)
	}
	f, err := os.Open(file)
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, err
	}
	defer f.Close()
	p, err := w.store.Projects.Touch(ctx, abs)
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, err
	}
	s, err := w.store.Import(ctx, p.ID, f, w.defaultMode())
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, err
	}
	return sessionRecord(s), present.Project(p), nil
}

// defaultMode is the approval mode Settings names, else ask.
func (w *Service) defaultMode() string {
	if s, err := config.LoadSettings(w.home); err == nil {
		switch s.ApprovalMode {
		case config.ApproveAsk, config.ApproveEdits, config.ApproveAll, config.ApproveNone:
			return s.ApprovalMode
		}
	}
	return config.ApproveAsk
}
