//go:build linux

package git

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// stampOf stats path, following links as git does. A path that does not
// exist (or goes through a file) has the stamp of no file; ok is false
// when stat fails otherwise.
func stampOf(path string) (s stamp, ok bool) {
	var st unix.Stat_t
	var err error = unix.EINTR
	for err == unix.EINTR {
		err = unix.Stat(path, &st)
	}
	switch {
	case err == unix.ENOENT || err == unix.ENOTDIR:
		return stamp{}, true
	case err != nil:
		return stamp{}, false
	}
	kind := st.Mode & unix.S_IFMT
	s = stamp{exists: true, dir: kind == unix.S_IFDIR, regular: kind == unix.S_IFREG, mode: st.Mode, uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino}
	if !s.dir {
		s.size, s.mtime, s.ctime = st.Size, st.Mtim.Nano(), st.Ctim.Nano()
	}
	return s, true
}

// readSmall reads path if it is a regular file of at most maxContent
// bytes, opened without blocking (a FIFO put in its place is not read).
func readSmall(path string) ([]byte, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxContent {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxContent+1))
	return b, err == nil && len(b) <= maxContent
}
