package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Records is the read-only history of sessions (`pilot sessions`, the
// window's History): records, transcripts, search, import.
type Records struct{ *core }

// The session history as the command line reads it (pilot sessions):
// full stored records rather than the window's summaries, and projects
// named by folder rather than opened.

// List returns every session of a project, newest first, with
// all its stored fields.
func (r *Records) List(ctx context.Context, projectID int64) ([]wire.SessionRecord, error) {
	ss, err := r.store.Sessions.List(ctx, projectID, 0, 0)
	return views(ss, err, r.withWaiting(r.elsewhere.runs()))
}

// Get returns one session with all its stored fields; the
// error wraps ErrNotFound when there is no such session.
func (r *Records) Get(ctx context.Context, id int64) (wire.SessionRecord, error) {
	s, err := r.store.Sessions.Get(ctx, id)
	return view(s, err, r.withWaiting(r.elsewhere.runs()))
}

// withWaiting is sessionRecord with the decisions the session waits on:
// in this process, or in the other process that runs it (its marker).
func (r *Records) withWaiting(runs map[int64]wire.ElsewhereRun) func(store.Session) wire.SessionRecord {
	return func(s store.Session) wire.SessionRecord {
		x := sessionRecord(s)
		x.Waiting = len(r.agent.Approvals().Pending(s.ID))
		if run, ok := runs[s.ID]; ok {
			x.Waiting += len(run.Waiting)
		}
		return x
	}
}

// MessageIDs returns the ids of a session's messages in
// conversation order (message i+1 of the session, as a person counts).
func (r *Records) MessageIDs(ctx context.Context, id int64) ([]int64, error) {
	ms, err := r.store.Messages.List(ctx, id)
	return views(ms, err, func(m store.Message) int64 { return m.ID })
}

// Search runs the full-text search of Sessions.Search, best hit
// first, with the snippet as plain text between the store's marks and
// each hit's score.
func (r *Records) Search(ctx context.Context, projectID int64, query string) ([]wire.SearchRecord, error) {
	hits, err := r.store.Search(ctx, projectID, query, 50)
	return views(hits, err, searchRecord)
}

// Transcript returns a session with every message, tool call and
// change, as of one moment.
func (r *Records) Transcript(ctx context.Context, id int64) (wire.Transcript, error) {
	t, err := r.store.Sessions.Transcript(ctx, id)
	return view(t, err, transcript)
}

// Import adds the session of a JSON export (Sessions.Export's
// "json") read from file to the project at dir, which is remembered as
// opened if it was not yet. The session comes in at the user's default
// approval mode (Settings, else ask), never at the mode the file names:
// an export carries no authority.
func (r *Records) Import(ctx context.Context, dir, file string) (wire.SessionRecord, wire.Project, error) {
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
	p, err := r.store.Projects.Touch(ctx, abs)
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, err
	}
	s, err := r.store.Import(ctx, p.ID, f, r.svc.Sessions.defaultMode())
	if err != nil {
		return wire.SessionRecord{}, wire.Project{}, err
	}
	return sessionRecord(s), present.Project(p), nil
}
