//go:build linux && cgo

package wailsbridge

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

extern void pilotIdle(void);

static gboolean pilot_idle(gpointer data) {
	pilotIdle();
	return G_SOURCE_REMOVE;
}

// Below GTK's redraws (GDK_PRIORITY_REDRAW) and every default source: it
// runs once the main loop has shown the window and has nothing else to do.
static void pilot_when_idle(void) { g_idle_add_full(G_PRIORITY_LOW, pilot_idle, NULL, NULL); }
*/
import "C"

import "sync"

var idle struct {
	sync.Mutex
	fn []func()
}

// WhenIdle runs fn in a goroutine once GTK's main loop is idle: after the
// window has been shown and drawn, with nothing of higher priority left.
// Work that the window's first paint does not need, but its first call
// does, starts there instead of competing with GTK's start-up.
func WhenIdle(fn func()) {
	idle.Lock()
	idle.fn = append(idle.fn, fn)
	idle.Unlock()
	C.pilot_when_idle()
}

//export pilotIdle
func pilotIdle() {
	idle.Lock()
	fns := idle.fn
	idle.fn = nil
	idle.Unlock()
	for _, f := range fns {
		go f()
	}
}
