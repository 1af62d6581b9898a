//go:build !bindings

package main

import (
	"os"
	"runtime"
)

// noDisplay reports that a Linux window has nowhere to open: GTK would
// fail with a trace, so main says so in one sentence instead.
func noDisplay() bool {
	return runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == ""
}
