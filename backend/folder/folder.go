// Package folder answers what several packages ask of a folder on disk.
package folder

import (
	"io"
	"os"
	"syscall"
)

// Empty reports whether path is a folder with nothing in it (opened as a
// folder only, so nothing else put there can block the read).
func Empty(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|oDirectory|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
}
