package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"pilot/backend/service"
	"pilot/backend/version"
	"pilot/backend/wailsbridge"
	"pilot/backend/wire"
)

// App is the thin edge the window calls: it converts arguments and calls
// backend/service. Every exported method is bound into the frontend
// (frontend/wailsjs/go/main/App.d.ts, wrapped by
// frontend/src/lib/wailsBackend.ts).
type App struct {
	ctx     context.Context
	svc     *opening
	log     *slog.Logger
	started time.Time
	notes   *wailsbridge.Notifier
	// quitting: the window closes without asking (a signal, or the user
	// confirmed closing with work in flight).
	quitting atomic.Bool

	readyOnce sync.Once
	ready     wire.AppReadyPayload
}

// NewApp returns the bound application object over a service that is
// opening.
func NewApp(svc *opening, log *slog.Logger, started time.Time) *App {
	a := &App{svc: svc, log: log, started: started}
	a.notes = wailsbridge.NewNotifier(wailsbridge.NotifierOptions{
		Enabled:  func() bool { return a.ws().Settings.NotificationsOn() },
		Describe: func(id int64) string { return a.ws().Sessions.Title(context.Background(), id) },
		Open:     a.openSession,
		Log:      log,
	})
	return a
}

// ws is the service once it has opened; a call that comes before waits
// for it. When it could not open, no call reaches it: FrontendReady, the
// window's first call, returns why and the window shows it with Quit, and
// every other call waits until the window closes.
func (a *App) ws() *service.Service {
	s, err := a.svc.wait()
	if err != nil {
		select {}
	}
	return s
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	a.quitOnSignal(ctx)
	wailsbridge.WhenIdle(a.svc.start)
	if s, err := a.svc.opened(); err == nil {
		s.SetEmitter(a.notes.Wrap(wailsbridge.NewEmitter(ctx)))
	}
}

// quitOnSignal closes the window cleanly on Ctrl+C or SIGTERM, quietly.
// Wails' own handler prints "Ctrl+C detected. Shutting down..." to the
// terminal for either, SIGTERM included; it is replaced by one log line.
func (a *App) quitOnSignal(ctx context.Context) {
	signal.Reset(os.Interrupt, syscall.SIGTERM)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-ch
		a.log.Info("closing the window", "signal", s.String())
		a.quitting.Store(true)
		runtime.Quit(ctx)
	}()
}

// domReady runs once the page has loaded in the window.
func (a *App) domReady(ctx context.Context) {
	wailsbridge.KeepOnScreen(ctx, a.log)
	a.watchWindow()
}

func (a *App) shutdown(context.Context) {
	a.svc.close()
	a.notes.Close()
	a.log.Info("window closed")
}

// Version returns what `pilot version` prints, for the About dialog.
func (a *App) Version() version.Info { return service.Version() }

// FrontendReady is the frontend's first call once its event listeners are
// in place. It records the start-up time and answers with an AppReady
// event, or with why Pilot could not open its data (the window then shows
// only that, with Quit).
func (a *App) FrontendReady() (wire.AppReadyPayload, error) {
	s, err := a.svc.wait()
	if err != nil {
		return wire.AppReadyPayload{}, err
	}
	a.readyOnce.Do(func() {
		a.ready = wire.AppReadyPayload{StartupMs: time.Since(a.started).Milliseconds()}
		a.log.Info("frontend ready", "startupMs", a.ready.StartupMs)
		s.MCP.WindowReady()
	})
	s.Emit(wire.AppReady, a.ready)
	return a.ready, nil
}

// OpenExternal opens an http(s) link from the chat in the user's browser.
func (a *App) OpenExternal(link string) error {
	if err := service.CheckExternalURL(link); err != nil {
		return err
	}
	runtime.BrowserOpenURL(a.ctx, link)
	return nil
}

// ListProjects returns known projects, most recently opened first.
func (a *App) ListProjects() ([]wire.Project, error) { return a.ws().Projects.List(a.ctx) }

// OpenProject opens (and remembers) the folder at path.
func (a *App) OpenProject(path string) (wire.Project, error) {
	return a.ws().Projects.Open(a.ctx, path)
}

// PickProjectFolder shows the native folder picker; "" when cancelled.
func (a *App) PickProjectFolder() (string, error) {
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open a project folder"})
}

// ListSessions returns a page of the project's sessions, newest first.
func (a *App) ListSessions(projectID int64, limit, offset int) ([]wire.SessionSummary, error) {
	return a.ws().Sessions.List(a.ctx, projectID, limit, offset)
}

// GetSession returns a session's last page of messages (reaching back to
// focusMessageId, a search hit, when not 0), its tool calls and pending
// approvals.
func (a *App) GetSession(sessionID, focusMessageID int64) (wire.SessionDetail, error) {
	return a.ws().Sessions.Get(a.ctx, sessionID, focusMessageID)
}

// OlderMessages returns the page of a session's messages before message
// before, reaching back at least to message from (0: one page).
func (a *App) OlderMessages(sessionID, before, from int64) (wire.MessagePage, error) {
	return a.ws().Sessions.OlderMessages(a.ctx, sessionID, before, from)
}

// NewSession starts an empty session in the project.
func (a *App) NewSession(projectID int64) (wire.SessionSummary, error) {
	return a.ws().Sessions.New(a.ctx, projectID)
}

// RenameSession sets a session's title.
func (a *App) RenameSession(sessionID int64, title string) error {
	return a.ws().Sessions.Rename(a.ctx, sessionID, title)
}

// DeleteSession removes a session and everything under it.
func (a *App) DeleteSession(sessionID int64) error { return a.ws().Sessions.Delete(a.ctx, sessionID) }

// ForkSession copies a session up to and including messageID.
func (a *App) ForkSession(sessionID, messageID int64) (wire.SessionSummary, error) {
	return a.ws().Sessions.Fork(a.ctx, sessionID, messageID)
}

// ExportSession renders a session as "md" or "json".
//
//wiregen:param format ExportFormat
func (a *App) ExportSession(sessionID int64, format string) (string, error) {
	return a.ws().Sessions.Export(a.ctx, sessionID, format)
}

// SaveSessionExport asks where to save an export and writes it; "" when
// the user cancels.
//
//wiregen:param format ExportFormat
func (a *App) SaveSessionExport(sessionID int64, format string) (string, error) {
	name, err := a.ws().Sessions.ExportFileName(a.ctx, sessionID, format)
	if err != nil {
		return "", err
	}
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{Title: "Export session", DefaultFilename: name})
	if err != nil || path == "" {
		return "", err
	}
	return path, a.ws().Sessions.WriteExport(a.ctx, sessionID, format, path)
}

// SearchSessions runs a full-text search over the project's sessions.
func (a *App) SearchSessions(projectID int64, query string) ([]wire.SearchHit, error) {
	return a.ws().Sessions.Search(a.ctx, projectID, query)
}

// SendMessage starts a turn with the user's text and attached files.
func (a *App) SendMessage(sessionID int64, text string, attachments []string) error {
	return a.ws().Turns.SendMessage(a.ctx, sessionID, text, attachments)
}

// SendMessageWithImages starts a turn with the user's text, attached
// files and pasted or dropped images.
func (a *App) SendMessageWithImages(sessionID int64, text string, attachments []string, images []wire.ImageInput) error {
	return a.ws().Turns.SendMessageWithImages(a.ctx, sessionID, text, attachments, images)
}

// GetImage returns a message's image by its hash.
func (a *App) GetImage(hash string) (wire.ImageView, error) { return a.ws().Turns.Image(hash) }

// SetSessionMode sets a session's mode: plan, ask, edits, all or none.
//
//wiregen:param mode ApprovalMode
func (a *App) SetSessionMode(sessionID int64, mode string) (wire.SessionSummary, error) {
	return a.ws().Sessions.SetMode(a.ctx, sessionID, mode)
}

// SetSessionModel switches a session to model (the model picker): its
// next request uses it; its provider stays.
func (a *App) SetSessionModel(sessionID int64, model string) (wire.SessionSummary, error) {
	return a.ws().Sessions.SetModel(a.ctx, sessionID, model)
}

// SessionModels lists the models of a session's server with each one's
// window, answer limit and prices, and where each came from.
func (a *App) SessionModels(sessionID int64) (wire.ModelList, error) {
	return a.ws().Sessions.Models(a.ctx, sessionID)
}

// ApprovePlan leaves plan mode for mode (edits or ask) and starts the work
// with the plan as the first message.
//
//wiregen:param mode ApprovalMode
func (a *App) ApprovePlan(sessionID int64, mode, plan string) (wire.SessionSummary, error) {
	return a.ws().Sessions.ApprovePlan(a.ctx, sessionID, mode, plan)
}

// RetryTurn runs the session's failed turn again, without adding the
// user's message again.
func (a *App) RetryTurn(sessionID int64) error { return a.ws().Turns.Retry(a.ctx, sessionID) }

// ReportError logs an error the window shows (the log redacts keys).
func (a *App) ReportError(where string, sessionID int64, message string) {
	a.ws().Turns.ReportError(where, sessionID, message)
}

// CancelTurn stops the session's running turn.
func (a *App) CancelTurn(sessionID int64) error { return a.ws().Turns.Cancel(sessionID) }

// CompactNow summarises the session's older turns.
func (a *App) CompactNow(sessionID int64) error { return a.ws().Turns.Compact(a.ctx, sessionID) }

// GetChange returns a pending change with every file's hunks.
func (a *App) GetChange(approvalID string) (wire.ChangeView, error) {
	return a.ws().Approvals.Change(approvalID)
}

// ProposedText is the text a pending change proposes for one file (an edit starts from it).
func (a *App) ProposedText(approvalID, path string) (string, error) {
	return a.ws().Approvals.ProposedText(approvalID, path)
}

// DecideChange answers a pending change.
func (a *App) DecideChange(approvalID string, decision wire.ChangeDecision) error {
	return a.ws().Approvals.DecideChange(approvalID, decision)
}

// DecideCommand answers a pending command.
func (a *App) DecideCommand(approvalID string, decision wire.CommandDecision) error {
	return a.ws().Approvals.DecideCommand(approvalID, decision)
}

// Inbox lists every waiting decision of every live session, of every
// project, oldest first (read again at each agent:approval and
// agent:approval_done).
func (a *App) Inbox() ([]wire.InboxItem, error) {
	return a.ws().Approvals.Inbox(a.ctx)
}

// DecideElicitation answers a pending form of an MCP server (accept with
// its values, decline, cancel); values that do not fit it are refused.
func (a *App) DecideElicitation(approvalID string, decision wire.ElicitationDecision) error {
	return a.ws().Approvals.DecideElicitation(approvalID, decision)
}

// GetLedger returns everything a session changed.
func (a *App) GetLedger(sessionID int64) (wire.Ledger, error) {
	return a.ws().Ledger.Get(a.ctx, sessionID)
}

// GetFileDiff is a file's cumulative diff over a session.
func (a *App) GetFileDiff(sessionID int64, path string) (wire.FileDiff, error) {
	return a.ws().Ledger.FileDiff(a.ctx, sessionID, path)
}

// GetCheckpointDiff is what one checkpoint did to one file.
func (a *App) GetCheckpointDiff(checkpointID int64, path string) (wire.FileDiff, error) {
	return a.ws().Ledger.CheckpointDiff(a.ctx, checkpointID, path)
}

// GetChangeDetail is a file change's card expanded.
func (a *App) GetChangeDetail(sessionID int64, toolCallID string) (wire.ChangeDetail, error) {
	return a.ws().Ledger.ChangeDetail(a.ctx, sessionID, toolCallID)
}

// RevertCheckpoint undoes one change or command.
func (a *App) RevertCheckpoint(checkpointID int64, input wire.RestoreInput) (wire.RestoreResult, error) {
	return a.ws().Ledger.RevertCheckpoint(a.ctx, checkpointID, input)
}

// RevertFile puts one file back to before the session changed it.
func (a *App) RevertFile(sessionID int64, path string, input wire.RestoreInput) (wire.RestoreResult, error) {
	return a.ws().Ledger.RevertFile(a.ctx, sessionID, path, input)
}

// Rewind restores files and/or the conversation to just before a user message.
//
//wiregen:param mode RewindMode
func (a *App) Rewind(sessionID, messageID int64, mode string, input wire.RestoreInput) (wire.RestoreResult, error) {
	return a.ws().Ledger.Rewind(a.ctx, sessionID, messageID, mode, input)
}

// ListDir returns one page of a folder for the file tree, in the folder
// the session works in (its worktree, or the project folder; 0: the
// project folder).
func (a *App) ListDir(projectID, sessionID int64, q wire.DirPageQuery) (wire.DirPage, error) {
	return a.ws().Files.ListDir(a.ctx, projectID, sessionID, q)
}

// ReadProjectFile returns a read-only preview of a file in the folder the
// session works in (0: the project folder).
func (a *App) ReadProjectFile(projectID, sessionID int64, path string) (wire.FilePreview, error) {
	return a.ws().Files.Read(a.ctx, projectID, sessionID, path)
}

// FindFiles fuzzy-matches the file paths of the folder the session works
// in (0: the project folder) for the @ picker.
func (a *App) FindFiles(projectID, sessionID int64, query string, limit int) ([]string, error) {
	return a.ws().Files.Find(a.ctx, projectID, sessionID, query, limit)
}

// The window as a desktop app: a second launch handed over by the
// single-instance lock, a notification's click, and the question asked
// before closing with work in flight.

// secondLaunch handles `pilot [DIR]` (or the launcher) started while this
// window runs: it opens DIR, if one was given, and comes forward.
func (a *App) secondLaunch(l options.SecondInstanceData) {
	a.log.Info("second launch handed over", "args", l.Args, "cwd", l.WorkingDirectory)
	if folder, ok := service.WindowFolder(l.Args); ok && folder != "" {
		a.openFolder(folder, l.WorkingDirectory)
	}
	a.bringForward()
}

func (a *App) openFolder(folder, cwd string) {
	dir, err := service.ResolveFolder(folder, cwd)
	if err == nil {
		_, err = a.ws().Projects.Open(a.ctx, dir)
	}
	if err != nil {
		a.log.Warn("folder from a second launch not opened", "folder", folder, "err", err)
		a.ws().Emit(wire.AppOpenProject, wire.OpenProjectPayload{Path: folder, Error: fmt.Sprintf("Could not open %s: %v", folder, err)})
		return
	}
	a.log.Info("project opened from a second launch", "path", dir)
	a.ws().Emit(wire.AppOpenProject, wire.OpenProjectPayload{Path: dir})
}

// openSession brings the window forward on a session (a notification was
// clicked), at the decision approvalID in the inbox when it names one.
func (a *App) openSession(sessionID int64, approvalID string) {
	dir, err := a.ws().Sessions.Project(a.ctx, sessionID)
	if err != nil {
		a.log.Warn("session of a clicked notification not found", "session", sessionID, "err", err)
		a.bringForward()
		return
	}
	a.log.Info("session opened from a notification", "session", sessionID)
	a.ws().Emit(wire.AppOpenSession, wire.OpenSessionPayload{ProjectPath: dir, SessionID: sessionID, ApprovalID: approvalID})
	a.bringForward()
}

func (a *App) bringForward() {
	runtime.WindowShow(a.ctx)
	wailsbridge.Present()
}

// beforeClose runs when the window is asked to close (its close button,
// a signal). With a turn running, an approval waiting or a background job
// running it keeps the
// window open and asks (app:confirm_quit; QuitNow answers yes); after a
// signal or a yes it lets it close, and shutdown stops the turns cleanly.
func (a *App) beforeClose(ctx context.Context) (prevent bool) {
	if a.quitting.Load() {
		return false
	}
	s, err := a.svc.wait()
	if err != nil {
		return false
	}
	work := s.Turns.InFlight(ctx)
	if len(work.Sessions) == 0 && len(work.Jobs) == 0 {
		return false
	}
	a.log.Info("close asked with work in flight", "sessions", len(work.Sessions), "waiting", work.Waiting, "jobs", len(work.Jobs))
	s.Emit(wire.AppConfirmQuit, work)
	a.bringForward()
	return true
}

// QuitNow closes the window although work is in flight: what was streamed
// is saved, running turns stop, and their commands' process groups end.
func (a *App) QuitNow() {
	a.log.Info("quitting with work in flight, as confirmed")
	a.quitting.Store(true)
	runtime.Quit(a.ctx)
}

// watchWindow follows the window's focus (notifications only while it is
// not in front) once the page has loaded.
func (a *App) watchWindow() {
	wailsbridge.WatchFocus(a.notes.SetFocused)
}
