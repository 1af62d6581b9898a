// Package notifytest is a notification server for tests: it owns
// org.freedesktop.Notifications on a (test) session bus, records every
// Notify call and can click a notification (the ActionInvoked signal a
// real server sends).
package notifytest

import (
	"sync"

	"github.com/godbus/dbus/v5"
)

// Notification is one Notify call as received.
type Notification struct {
	ID      uint32   `json:"id"`
	AppName string   `json:"appName"`
	Icon    string   `json:"icon"`
	Summary string   `json:"summary"`
	Body    string   `json:"body"`
	Actions []string `json:"actions"`
	Entry   string   `json:"desktopEntry"` // the desktop-entry hint
}

// Server records notifications.
type Server struct {
	conn *dbus.Conn
	mu   sync.Mutex
	got  []Notification
	// OnNotify, when set, is called with each notification (outside the lock).
	OnNotify func(Notification)
}

// Serve takes the notifications name on conn's bus.
func Serve(conn *dbus.Conn) (*Server, error) {
	s := &Server{conn: conn}
	if err := conn.ExportMethodTable(map[string]any{
		"Notify":          s.notify,
		"GetCapabilities": func() ([]string, *dbus.Error) { return []string{"actions", "body"}, nil },
		"GetServerInformation": func() (string, string, string, string, *dbus.Error) {
			return "notifytest", "pilot", "1", "1.2", nil
		},
		"CloseNotification": func(id uint32) *dbus.Error { return nil },
	}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		return nil, err
	}
	if _, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	entry, _ := hints["desktop-entry"].Value().(string)
	s.mu.Lock()
	n := Notification{ID: uint32(len(s.got) + 1), AppName: app, Icon: icon, Summary: summary, Body: body, Actions: actions, Entry: entry}
	s.got = append(s.got, n)
	f := s.OnNotify
	s.mu.Unlock()
	if f != nil {
		f(n)
	}
	return n.ID, nil
}

// Received returns the notifications so far, oldest first.
func (s *Server) Received() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notification(nil), s.got...)
}

// Click sends ActionInvoked for the notification's action key, as a
// server does when the user clicks it.
func (s *Server) Click(id uint32, action string) error {
	return s.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", id, action)
}
