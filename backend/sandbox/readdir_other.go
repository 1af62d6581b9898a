//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
)

// readDir reads a folder's entries in the order the file system keeps them
// (os.ReadDir sorts them, and ListDir sorts again its own way).
func readDir(abs string) ([]fs.DirEntry, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
