package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"pilot/backend/events"
	"pilot/backend/version"
	"pilot/backend/wailsbridge"
)

// App is the thin edge the window calls: it converts arguments and calls
// backend/. Every exported method is bound into the frontend.
type App struct {
	home    string
	log     *slog.Logger
	started time.Time

	emit      events.Emitter
	readyOnce sync.Once
	ready     events.AppReadyPayload
}

// NewApp returns the bound application object.
func NewApp(home string, log *slog.Logger, started time.Time) *App {
	return &App{home: home, log: log, started: started, emit: events.Discard{}}
}

func (a *App) startup(ctx context.Context) {
	a.emit = wailsbridge.NewEmitter(ctx)
}

func (a *App) shutdown(context.Context) {
	a.log.Info("window closed")
}

// Version returns what `pilot version` prints, for the About dialog.
func (a *App) Version() version.Info { return version.Get() }

// FrontendReady is the frontend's first call once its event listeners are
// in place. It records the start-up time and answers with an AppReady event.
func (a *App) FrontendReady() events.AppReadyPayload {
	a.readyOnce.Do(func() {
		a.ready = events.AppReadyPayload{StartupMs: time.Since(a.started).Milliseconds()}
		a.log.Info("frontend ready", "startupMs", a.ready.StartupMs)
	})
	a.emit.Emit(events.AppReady, a.ready)
	return a.ready
}
