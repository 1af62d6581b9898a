//go:build !linux

package projectroot

import (
	"os"
	"path/filepath"
)

// Locate returns where the file f, opened through the root, is: the path
// given with its links resolved (f itself was opened beneath the root, so
// this only names it).
func (r *Root) Locate(f *os.File, guess Path) Path {
	real, err := filepath.EvalSymlinks(guess.Abs)
	if err != nil || !r.contains(real) {
		return guess
	}
	if real == r.dir {
		return r.at(".")
	}
	return r.at(filepath.ToSlash(real[len(r.dir)+1:]))
}
