//go:build linux

package ledger

import (
	"io/fs"
	"syscall"
)

// inodeCtime returns what a file's stat says beyond size, time and mode: its
// inode number and change time, so that a file replaced by another (mv) or
// changed with its mtime put back is still seen as changed.
func inodeCtime(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
