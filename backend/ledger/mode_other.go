//go:build !windows

package ledger

import "io/fs"

// sameMode reports whether two states' modes are the same file mode (see
// mode_windows.go for Windows, which has no permission bits).
func sameMode(a, b fs.FileMode) bool { return a == b }
