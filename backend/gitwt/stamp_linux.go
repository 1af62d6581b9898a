//go:build linux

package gitwt

import "golang.org/x/sys/unix"

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
	s = stamp{exists: true, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR, mode: st.Mode, uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino}
	if !s.dir {
		s.size, s.mtime, s.ctime = st.Size, st.Mtim.Nano(), st.Ctim.Nano()
	}
	return s, true
}
