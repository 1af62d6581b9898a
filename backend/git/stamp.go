package git

import (
	"crypto/sha256"
	"time"
)

// stamp is what stat says of a file: whether it exists, its type,
// permissions and owners, its device and inode, and for a file that is
// not a folder its size and the times of its last change (mtime) and of
// its inode's (ctime, which no one can set back): a file changed, or
// another put in its place, has another stamp, but within one tick of the
// file system's clock (see racy). A folder's times change with every entry
// added or removed in it (git's index, a lock), so they are left out: the
// entries that matter are stamped themselves.
type stamp struct {
	exists, dir, regular bool
	mode                 uint32
	uid, gid             uint32
	dev, ino             uint64
	size                 int64
	mtime, ctime         int64 // nanoseconds since 1970
}

// racy reports whether s is of a file changed less than racy before
// start, or after it: a change in the same tick would keep the stamp.
func (s stamp) racy(start time.Time) bool {
	edge := start.Add(-racy).UnixNano()
	return s.exists && !s.dir && (s.mtime > edge || s.ctime > edge)
}

// maxContent is the largest file whose content the cache keeps (as a
// hash): configuration files, HEAD, a .git file; not the git program.
const maxContent = 64 << 10

// seen is a file as the cache saw it: its stamp and, for a regular file
// of at most maxContent bytes, the hash of its content.
type seen struct {
	stamp
	sum  [sha256.Size]byte
	read bool // sum is the content's
	racy bool // the stamp was too new to vouch for the content: sum decides
}

// observe reads path's content, then stats it: a stamp that is not racy
// vouches for the content read before it (it did not change since).
func observe(path string) (seen, bool) {
	var s seen
	if b, ok := readSmall(path); ok {
		s.sum, s.read = sha256.Sum256(b), true
	}
	var ok bool
	s.stamp, ok = stampOf(path)
	return s, ok
}

// same reports whether path is as s saw it: the same stamp, when it
// vouches, or the same content.
func (s seen) same(path string) bool {
	now, ok := stampOf(path)
	switch {
	case !ok:
		return false
	case now == s.stamp && !s.racy:
		return true
	case !s.read || !now.regular:
		return false
	}
	b, ok := readSmall(path)
	return ok && sha256.Sum256(b) == s.sum
}
