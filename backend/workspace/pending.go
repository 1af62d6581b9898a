package workspace

// WIP: bodies land as the store, agent and config packages do.

import (
	"context"
	"errors"

	"pilot/backend/events"
)

var errNotWired = errors.New("not wired yet")

func (w *Workspace) GetSession(ctx context.Context, id int64) (events.SessionDetail, error) {
	return events.SessionDetail{}, errNotWired
}
func (w *Workspace) NewSession(ctx context.Context, projectID int64) (events.SessionSummary, error) {
	return events.SessionSummary{}, errNotWired
}
func (w *Workspace) SendMessage(ctx context.Context, id int64, text string, att []string) error {
	return errNotWired
}
func (w *Workspace) CancelTurn(id int64) error                      { return errNotWired }
func (w *Workspace) CompactNow(ctx context.Context, id int64) error { return errNotWired }
func (w *Workspace) GetChange(id string) (events.ChangeView, error) {
	return events.ChangeView{}, errNotWired
}
func (w *Workspace) DecideChange(id string, d events.ChangeDecision) error   { return errNotWired }
func (w *Workspace) DecideCommand(id string, d events.CommandDecision) error { return errNotWired }
func (w *Workspace) ListDir(ctx context.Context, p int64, dir string) ([]events.FileEntry, error) {
	return nil, errNotWired
}
func (w *Workspace) ReadProjectFile(ctx context.Context, p int64, path string) (events.FilePreview, error) {
	return events.FilePreview{}, errNotWired
}
func (w *Workspace) FindFiles(ctx context.Context, p int64, q string, limit int) ([]string, error) {
	return nil, errNotWired
}
