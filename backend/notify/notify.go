// Package notify tells the user when the agent needs them and the window
// is not in front: a desktop notification through the freedesktop
// notifications interface on the D-Bus session bus (godbus), whose click
// brings the window forward on that session, and the window's urgency
// hint.
package notify

import (
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/godbus/dbus/v5"

	"pilot/backend/wire"
)

// The freedesktop notifications interface (Desktop Notifications
// Specification 1.2).
const (
	busName   = "org.freedesktop.Notifications"
	busPath   = dbus.ObjectPath("/org/freedesktop/Notifications")
	iface     = "org.freedesktop.Notifications"
	actionKey = "default" // the action of a click on the notification's body
)

// Options configures a Notifier.
type Options struct {
	// Connect opens the bus; nil: the session bus.
	Connect func() (*dbus.Conn, error)
	// Enabled reads the Settings switch; nil: always on.
	Enabled func() bool
	// Describe names a session for the notification's text ("" when unknown).
	Describe func(sessionID int64) string
	// Open is called when the user clicks a notification of a session:
	// approvalID names the decision it was about ("" for a turn's end),
	// which the window shows in its inbox.
	Open func(sessionID int64, approvalID string)
	// Urgent marks the window as wanting attention.
	Urgent func()
	Log    *slog.Logger
}

// Notifier watches the events on their way to the window (Wrap) and
// notifies for a change or command waiting for approval and for a turn
// that ended, while the window does not have the focus.
type Notifier struct {
	o       Options
	focused atomic.Bool

	mu   sync.Mutex
	conn *dbus.Conn
	sent map[uint32]Note // notification id → what it was about
	// early holds clicks on ids not (yet) in sent: the server may signal a
	// click before Notify's reply is read. Clicks on other apps'
	// notifications land here too, so it is kept small.
	early map[uint32]bool
	err   error // why the bus could not be used (logged once)
}

// New returns a Notifier; the bus is opened at the first notification.
func New(o Options) *Notifier {
	return &Notifier{o: o, sent: map[uint32]Note{}, early: map[uint32]bool{}}
}

// SetFocused records whether the window has the keyboard focus.
func (n *Notifier) SetFocused(focused bool) { n.focused.Store(focused) }

// Wrap returns an emitter that passes every event on to next and
// notifies on the ones that need the user.
func (n *Notifier) Wrap(next wire.Emitter) wire.Emitter {
	return emitter{n: n, next: next}
}

type emitter struct {
	n    *Notifier
	next wire.Emitter
}

func (e emitter) Emit(name string, payload any) {
	e.next.Emit(name, payload)
	if note, ok := noteFor(payload); ok {
		e.n.post(note)
	}
}

// Note is one notification: of a session, and of one of its waiting
// decisions when ApprovalID is set.
type Note struct {
	SessionID     int64
	ApprovalID    string
	Summary, Body string
}

// noteFor is the notification an event asks for, if any: an approval
// waits, or a turn ended (not one the user cancelled: they were there).
func noteFor(payload any) (Note, bool) {
	switch p := payload.(type) {
	case wire.ApprovalPayload:
		return Note{SessionID: p.SessionID, ApprovalID: p.Approval.ID, Summary: "Pilot is waiting for your approval", Body: approvalText(p.Approval)}, true
	case wire.TurnDonePayload:
		switch p.Reason {
		case wire.EndCancelled:
			return Note{}, false
		case wire.EndError:
			return Note{SessionID: p.SessionID, Summary: "Pilot stopped on an error"}, true
		}
		return Note{SessionID: p.SessionID, Summary: "Pilot has finished"}, true
	}
	return Note{}, false
}

func approvalText(a wire.Approval) string {
	switch {
	case a.Server != "":
		return fmt.Sprintf("Call %s on the MCP server %s", a.McpTool, a.Server)
	case a.Command != "":
		return "Run: " + a.Command
	case len(a.Paths) == 1:
		return "Change " + a.Paths[0]
	case len(a.Paths) > 1:
		return fmt.Sprintf("Change %s and %d more files", a.Paths[0], len(a.Paths)-1)
	}
	return "A " + a.Tool + " call"
}

// post notifies unless the window has the focus or the switch is off
// (both read as the event passes, for the few events that notify). The
// rest (the session's title, the bus) runs off the event path: a slow
// database or bus never holds an event up.
func (n *Notifier) post(note Note) {
	if n.focused.Load() || (n.o.Enabled != nil && !n.o.Enabled()) {
		return
	}
	go n.deliver(note)
}

func (n *Notifier) deliver(note Note) {
	if n.o.Urgent != nil {
		n.o.Urgent()
	}
	if n.o.Describe != nil {
		if title := n.o.Describe(note.SessionID); title != "" {
			if note.Body == "" {
				note.Body = title
			} else {
				note.Body = title + ": " + note.Body
			}
		}
	}
	n.send(note)
}

func (n *Notifier) send(note Note) {
	n.mu.Lock()
	conn, err := n.bus()
	n.mu.Unlock()
	if err != nil {
		return
	}
	hints := map[string]dbus.Variant{
		"desktop-entry": dbus.MakeVariant("pilot"),
		"urgency":       dbus.MakeVariant(byte(1)), // normal
		"category":      dbus.MakeVariant("im.received"),
	}
	var id uint32
	err = conn.Object(busName, busPath).Call(iface+".Notify", 0,
		"Pilot", uint32(0), "pilot", note.Summary, note.Body,
		[]string{actionKey, "Open"}, hints, int32(-1)).Store(&id)
	if err != nil {
		n.log().Warn("desktop notification not shown", "err", err, "session", note.SessionID)
		return
	}
	n.mu.Lock()
	n.sent[id] = note
	clicked := n.early[id]
	delete(n.early, id)
	n.mu.Unlock()
	if clicked {
		n.open(note)
	}
}

// bus is the session bus connection, opened (and its signals watched) on
// first use; a bus that cannot be opened is logged once and not retried.
// Call with n.mu held.
func (n *Notifier) bus() (*dbus.Conn, error) {
	if n.conn != nil || n.err != nil {
		return n.conn, n.err
	}
	connect := n.o.Connect
	if connect == nil {
		connect = func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() }
	}
	conn, err := connect()
	if err == nil {
		err = conn.AddMatchSignal(dbus.WithMatchInterface(iface), dbus.WithMatchObjectPath(busPath))
	}
	if err != nil {
		n.err = err
		n.log().Warn("no desktop notifications: the session bus cannot be used", "err", err)
		return nil, err
	}
	ch := make(chan *dbus.Signal, 16)
	conn.Signal(ch)
	go n.watch(ch)
	n.conn = conn
	return conn, nil
}

// watch handles clicks (ActionInvoked) and forgets closed notifications.
func (n *Notifier) watch(ch <-chan *dbus.Signal) {
	for s := range ch {
		if len(s.Body) < 2 {
			continue
		}
		id, ok := s.Body[0].(uint32)
		if !ok {
			continue
		}
		key, _ := s.Body[1].(string)
		click := s.Name == iface+".ActionInvoked" && key == actionKey
		n.mu.Lock()
		note, known := n.sent[id]
		switch {
		case s.Name == iface+".NotificationClosed":
			delete(n.sent, id)
		case click && !known:
			if len(n.early) >= 32 {
				clear(n.early)
			}
			n.early[id] = true
		}
		n.mu.Unlock()
		if click && known {
			n.open(note)
		}
	}
}

func (n *Notifier) open(note Note) {
	if n.o.Open != nil {
		n.o.Open(note.SessionID, note.ApprovalID)
	}
}

// Close closes the bus connection.
func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn != nil {
		n.conn.Close()
		n.conn = nil
	}
}

func (n *Notifier) log() *slog.Logger {
	if n.o.Log != nil {
		return n.o.Log
	}
	return slog.Default()
}
