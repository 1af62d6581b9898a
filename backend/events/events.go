// Package events names every event the backend pushes to a frontend and
// types its payload. frontend/src/lib/events.ts mirrors this file; a test
// keeps the two in step.
//
// Streamed payloads carry the session id and a per-session sequence number
// so a frontend can apply them in order; big things (files, diffs) are not
// pushed but fetched through bound methods.
package events

// Emitter delivers an event to the frontend. The Wails adapter in
// backend/wailsbridge is the only implementation that touches the runtime.
type Emitter interface {
	Emit(name string, payload any)
}

// Event names.
const (
	// AppReady is emitted once the frontend has called FrontendReady.
	AppReady = "app:ready"
)

// AppReadyPayload says how long the app took to become usable.
type AppReadyPayload struct {
	// StartupMs is the time from process start to the frontend's first call.
	StartupMs int64 `json:"startupMs"`
}

// Discard drops every event (headless runs with no listener).
type Discard struct{}

// Emit does nothing.
func (Discard) Emit(string, any) {}
