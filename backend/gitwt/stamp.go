package gitwt

import "time"

// stamp is what stat says of a file: whether it exists, its type,
// permissions and owners, its device and inode, and for a file that is
// not a folder its size and the times of its last change (mtime) and of
// its inode's (ctime, which no one can set back): a file changed, or
// another put in its place, has another stamp, but within one tick of the
// file system's clock (see racy). A folder's times change with every entry
// added or removed in it (git's index, a lock), so they are left out: the
// entries that matter are stamped themselves.
type stamp struct {
	exists, dir  bool
	mode         uint32
	uid, gid     uint32
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds since 1970
}

// racy reports whether s is of a file changed less than racy before
// start, or after it: a change in the same tick would keep the stamp.
func (s stamp) racy(start time.Time) bool {
	edge := start.Add(-racy).UnixNano()
	return s.exists && !s.dir && (s.mtime > edge || s.ctime > edge)
}
