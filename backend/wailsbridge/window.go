package wailsbridge

import (
	"context"
	"log/slog"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// KeepOnScreen puts the window back on the screen when it opened partly off
// it. Wails centres the window at its default size (1280x820 logical
// pixels) before the screen's size limit shrinks it, so on a screen smaller
// than that in logical pixels (1920x1080 at 200% scaling is 960x540) the
// window starts with its top left off the screen: without a window manager
// that corrects it, the title and the sidebar are out of reach. Call it
// once the page is loaded (OnDomReady), when the size limit has applied.
func KeepOnScreen(ctx context.Context, log *slog.Logger) {
	screens, err := runtime.ScreenGetAll(ctx)
	if err != nil {
		log.Warn("could not read the screen size", "err", err)
		return
	}
	w, h := runtime.WindowGetSize(ctx)
	x, y := runtime.WindowGetPosition(ctx)
	s, ok := current(screens)
	if !ok || !offScreen(x, y, w, h, s) {
		return
	}
	runtime.WindowCenter(ctx)
	nx, ny := runtime.WindowGetPosition(ctx)
	log.Info("window was off the screen; centred", "x", x, "y", y, "width", w, "height", h,
		"screenWidth", s.Size.Width, "screenHeight", s.Size.Height, "newX", nx, "newY", ny)
}

// current is the screen the window is on (else the primary one).
func current(screens []runtime.Screen) (runtime.Screen, bool) {
	for _, s := range screens {
		if s.IsCurrent {
			return s, true
		}
	}
	for _, s := range screens {
		if s.IsPrimary {
			return s, true
		}
	}
	return runtime.Screen{}, false
}

// offScreen reports whether a window at x, y of w by h logical pixels
// starts off the screen or is bigger than it.
func offScreen(x, y, w, h int, s runtime.Screen) bool {
	return x < 0 || y < 0 || w > s.Size.Width || h > s.Size.Height
}
