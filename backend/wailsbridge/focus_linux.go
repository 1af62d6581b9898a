//go:build linux && cgo

package wailsbridge

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

extern void pilotFocusChanged(int active);

static GtkWindow *pilot_main;

// The main window: the first visible top-level window that is no dialog.
static GtkWindow *pilot_find_main(void) {
	if (pilot_main != NULL) return pilot_main;
	GList *all = gtk_window_list_toplevels();
	for (GList *i = all; i != NULL; i = i->next) {
		GtkWindow *w = GTK_WINDOW(i->data);
		if (gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL &&
		    gtk_window_get_transient_for(w) == NULL && gtk_widget_get_visible(GTK_WIDGET(w))) {
			pilot_main = w;
			break;
		}
	}
	g_list_free(all);
	return pilot_main;
}

static void pilot_active_changed(GObject *obj, GParamSpec *spec, gpointer data) {
	GtkWindow *w = GTK_WINDOW(obj);
	gboolean active = gtk_window_is_active(w);
	if (active) gtk_window_set_urgency_hint(w, FALSE);
	pilotFocusChanged(active ? 1 : 0);
}

static gboolean pilot_watch(gpointer data) {
	GtkWindow *w = pilot_find_main();
	if (w == NULL) {
		pilotFocusChanged(-1);
		return G_SOURCE_REMOVE;
	}
	g_signal_connect(w, "notify::is-active", G_CALLBACK(pilot_active_changed), NULL);
	pilotFocusChanged(gtk_window_is_active(w) ? 1 : 0);
	return G_SOURCE_REMOVE;
}

static gboolean pilot_urgent(gpointer data) {
	GtkWindow *w = pilot_find_main();
	if (w != NULL && !gtk_window_is_active(w)) gtk_window_set_urgency_hint(w, TRUE);
	return G_SOURCE_REMOVE;
}

// Raise and focus the window with the X server's current time: GTK's
// present without a time uses the last user event's, which the server
// ignores once another client took the focus since (no window manager),
// and a window manager may refuse as focus stealing. The user asked
// (clicked a notification, launched Pilot), so now is the right time.
static gboolean pilot_present(gpointer data) {
	GtkWindow *w = pilot_find_main();
	if (w == NULL) return G_SOURCE_REMOVE;
	guint32 t = GDK_CURRENT_TIME;
#ifdef GDK_WINDOWING_X11
	GdkWindow *gw = gtk_widget_get_window(GTK_WIDGET(w));
	if (gw != NULL && GDK_IS_X11_WINDOW(gw)) t = gdk_x11_get_server_time(gw);
#endif
	gtk_window_present_with_time(w, t);
	return G_SOURCE_REMOVE;
}

static void pilot_present_main(void) { g_idle_add(pilot_present, NULL); }
static void pilot_watch_focus(void) { g_idle_add(pilot_watch, NULL); }
static void pilot_set_urgent(void) { g_idle_add(pilot_urgent, NULL); }
*/
import "C"

import "sync"

var focus struct {
	sync.Mutex
	onChange func(active bool)
}

// WatchFocus calls onChange with whether the window has the keyboard focus,
// once at once and then on every change (GTK's is-active, on its main
// loop). Call it once the window is shown (OnDomReady). The window's
// urgency hint is cleared whenever it gets the focus.
func WatchFocus(onChange func(active bool)) {
	focus.Lock()
	focus.onChange = onChange
	focus.Unlock()
	C.pilot_watch_focus()
}

// Present raises the window, unminimised, and gives it the focus.
func Present() { C.pilot_present_main() }

// MarkUrgent sets the window's urgency hint (the task bar flashes it)
// unless it has the focus; WatchFocus clears it when the focus comes.
func MarkUrgent() { C.pilot_set_urgent() }

//export pilotFocusChanged
func pilotFocusChanged(active C.int) {
	focus.Lock()
	f := focus.onChange
	focus.Unlock()
	if f != nil && active >= 0 {
		f(active == 1)
	}
}
