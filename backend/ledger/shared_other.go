//go:build !windows

package ledger

import "os"

// openShared opens the file at p for reading; on Unix others may always
// delete it or rename over it meanwhile (see shared_windows.go).
func openShared(p string) (*os.File, error) { return os.Open(p) }
