// Package wailsbridge is the one place in backend/ that imports the Wails
// runtime: it delivers backend events to the window and keeps the window
// on the screen.
package wailsbridge

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"pilot/backend/present"
)

// Emitter sends events through the Wails runtime of ctx (the context Wails
// passes to OnStartup).
type Emitter struct {
	ctx context.Context
}

// NewEmitter returns an Emitter bound to the Wails context.
func NewEmitter(ctx context.Context) Emitter { return Emitter{ctx: ctx} }

// Emit sends one event to the frontend, without what the window never
// shows (present.ForWindow).
func (e Emitter) Emit(name string, payload any) {
	runtime.EventsEmit(e.ctx, name, present.ForWindow(payload))
}
