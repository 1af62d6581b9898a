//go:build !linux

package ledger

import (
	"io/fs"
	"os"
)

// statter lstats the files of one scan (by absolute path here; see
// stat_linux.go).
type statter struct{}

func openStatter(string) (*statter, error) { return &statter{}, nil }

func (*statter) close() {}

// lstat returns the stat part of the entry of the file at abs; ok is false
// when it is gone or is neither a regular file nor a symbolic link. Inode
// and change time are not read outside Linux: size, mtime and mode decide.
func (*statter) lstat(rel, abs string) (ent entry, ok bool) {
	fi, err := os.Lstat(abs)
	if err != nil || (!fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0) {
		return entry{}, false
	}
	return entry{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: modeOf(fi)}, true
}
