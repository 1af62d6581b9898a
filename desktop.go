package main

import (
	"context"
	"fmt"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"pilot/backend/cli"
	"pilot/backend/events"
	"pilot/backend/wailsbridge"
)

// The window as a desktop app: a second launch handed over by the
// single-instance lock, a notification's click, and the question asked
// before closing with work in flight.

// secondLaunch handles `pilot [DIR]` (or the launcher) started while this
// window runs: it opens DIR, if one was given, and comes forward.
func (a *App) secondLaunch(l options.SecondInstanceData) {
	a.log.Info("second launch handed over", "args", l.Args, "cwd", l.WorkingDirectory)
	if folder, ok := cli.WindowFolder(l.Args); ok && folder != "" {
		a.openFolder(folder, l.WorkingDirectory)
	}
	a.bringForward()
}

func (a *App) openFolder(folder, cwd string) {
	dir, err := cli.ResolveFolder(folder, cwd)
	if err == nil {
		_, err = a.ws.OpenProject(a.ctx, dir)
	}
	if err != nil {
		a.log.Warn("folder from a second launch not opened", "folder", folder, "err", err)
		a.ws.Emit(events.AppOpenProject, events.OpenProjectPayload{Path: folder, Error: fmt.Sprintf("Could not open %s: %v", folder, err)})
		return
	}
	a.log.Info("project opened from a second launch", "path", dir)
	a.ws.Emit(events.AppOpenProject, events.OpenProjectPayload{Path: dir})
}

// openSession brings the window forward on a session (a notification was
// clicked).
func (a *App) openSession(sessionID int64) {
	dir, err := a.ws.SessionProject(a.ctx, sessionID)
	if err != nil {
		a.log.Warn("session of a clicked notification not found", "session", sessionID, "err", err)
		a.bringForward()
		return
	}
	a.log.Info("session opened from a notification", "session", sessionID)
	a.ws.Emit(events.AppOpenSession, events.OpenSessionPayload{ProjectPath: dir, SessionID: sessionID})
	a.bringForward()
}

func (a *App) bringForward() {
	runtime.WindowShow(a.ctx)
	wailsbridge.Present()
}

// beforeClose runs when the window is asked to close (its close button,
// a signal). With a turn running or an approval waiting it keeps the
// window open and asks (app:confirm_quit; QuitNow answers yes); after a
// signal or a yes it lets it close, and shutdown stops the turns cleanly.
func (a *App) beforeClose(ctx context.Context) (prevent bool) {
	if a.quitting.Load() {
		return false
	}
	work := a.ws.InFlight(ctx)
	if len(work.Sessions) == 0 {
		return false
	}
	a.log.Info("close asked with work in flight", "sessions", len(work.Sessions), "waiting", work.Waiting)
	a.ws.Emit(events.AppConfirmQuit, work)
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
