package wailsbridge

import "pilot/backend/notify"

// Notifier is the window's desktop notifications (backend/notify): the
// events pass through its Wrap on their way to the window, and it
// notifies, the window marked urgent, while the window has no focus.
type Notifier = notify.Notifier

// NotifierOptions are the window's callbacks for its notifications
// (Urgent is the bridge's own MarkUrgent).
type NotifierOptions = notify.Options

// NewNotifier returns the window's notifications.
func NewNotifier(o NotifierOptions) *Notifier {
	o.Urgent = MarkUrgent
	return notify.New(o)
}
