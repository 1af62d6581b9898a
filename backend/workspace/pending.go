package workspace

// WIP: bodies land as the store, agent and config packages do.

import (
	"context"
	"errors"

	"pilot/backend/events"
)

var errNotWired = errors.New("not wired yet")

func (w *Workspace) ListProjects(ctx context.Context) ([]events.Project, error) {
	return nil, errNotWired
}
func (w *Workspace) OpenProject(ctx context.Context, path string) (events.Project, error) {
	return events.Project{}, errNotWired
}
func (w *Workspace) ListSessions(ctx context.Context, projectID int64, limit, offset int) ([]events.SessionSummary, error) {
	return nil, errNotWired
}
func (w *Workspace) GetSession(ctx context.Context, id int64) (events.SessionDetail, error) {
	return events.SessionDetail{}, errNotWired
}
func (w *Workspace) NewSession(ctx context.Context, projectID int64) (events.SessionSummary, error) {
	return events.SessionSummary{}, errNotWired
}
func (w *Workspace) RenameSession(ctx context.Context, id int64, title string) error {
	return errNotWired
}
func (w *Workspace) DeleteSession(ctx context.Context, id int64) error { return errNotWired }
func (w *Workspace) ForkSession(ctx context.Context, id, msg int64) (events.SessionSummary, error) {
	return events.SessionSummary{}, errNotWired
}
func (w *Workspace) ExportSession(ctx context.Context, id int64, f string) (string, error) {
	return "", errNotWired
}
func (w *Workspace) ExportFileName(ctx context.Context, id int64, f string) (string, error) {
	return "", errNotWired
}
func (w *Workspace) WriteExport(ctx context.Context, id int64, f, path string) error {
	return errNotWired
}
func (w *Workspace) SearchSessions(ctx context.Context, projectID int64, q string) ([]events.SearchHit, error) {
	return nil, errNotWired
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
func (w *Workspace) GetSettings() (events.SettingsView, error) {
	return events.SettingsView{}, errNotWired
}
func (w *Workspace) SaveSettings(in events.SettingsInput) (events.SettingsView, error) {
	return events.SettingsView{}, errNotWired
}
func (w *Workspace) ListModels(ctx context.Context, p, u, k string) ([]string, error) {
	return nil, errNotWired
}
func (w *Workspace) ListRules(ctx context.Context, p int64) ([]events.Rule, error) {
	return nil, errNotWired
}
func (w *Workspace) AddRule(ctx context.Context, p int64, tool, pat, eff string) (events.Rule, error) {
	return events.Rule{}, errNotWired
}
func (w *Workspace) DeleteRule(ctx context.Context, id int64) error { return errNotWired }
