//go:build linux

package ledger

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"pilot/backend/projectroot"
)

// watchMask is every change to a folder's entries or to the files in it.
// IN_CLOSE_WRITE also covers a file written through a shared mapping,
// which reports no IN_MODIFY.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// remoteFS are the file systems whose changes made by other machines
// inotify does not see: a project on one of them is always fully scanned.
var remoteFS = map[int64]string{
	0x6969: "NFS", 0x517b: "SMB", 0xff534d42: "CIFS", 0xfe534d42: "SMB2", 0x65735546: "FUSE",
	0x01021997: "9P", 0x00c36400: "Ceph", 0x5346414f: "AFS", 0x564c: "NCP", 0x47504653: "GPFS",
}

// watcher reports which folders of a project changed since it last
// looked, with inotify: one watch per folder the scan reads, added before
// the folder is read, so that no change after the read goes unseen.
type watcher struct {
	fd int

	mu   sync.Mutex // add is called from the walk's goroutines
	rels map[int32]string
	wds  map[string]int32
	// skipped are the folders whose files the ledger lists but does not
	// keep (.git folders, ignored ones): an ignore file there changes no
	// rule the scan uses.
	skipped map[int32]bool
	err     error // the first add that failed: the watcher is not complete
}

// newWatcher returns a watcher for the project folder dir, or an error
// saying why its changes cannot be watched (the scans are then full).
func newWatcher(dir string) (*watcher, error) {
	var sfs unix.Statfs_t
	if err := unix.Statfs(dir, &sfs); err != nil {
		return nil, fmt.Errorf("statfs %s: %w", dir, err)
	}
	if name, ok := remoteFS[int64(sfs.Type)]; ok {
		return nil, fmt.Errorf("%s is on %s, whose changes from elsewhere inotify does not report", dir, name)
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("inotify: %w", err)
	}
	return &watcher{fd: fd, rels: map[int32]string{}, wds: map[string]int32{}, skipped: map[int32]bool{}}, nil
}

func (w *watcher) close() { unix.Close(w.fd) }

// add watches the folder abs (project-relative rel); skipped: the ledger
// does not keep its files.
func (w *watcher) add(abs, rel string, skipped bool) {
	wd, err := unix.InotifyAddWatch(w.fd, abs, watchMask)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		if w.err == nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ENOTDIR) {
			// ENOSPC: fs.inotify.max_user_watches is reached.
			w.err = fmt.Errorf("watch %s: %w", abs, err)
		}
		return
	}
	w.rels[int32(wd)] = rel
	w.wds[rel] = int32(wd)
	if skipped {
		w.skipped[int32(wd)] = true
	} else {
		delete(w.skipped, int32(wd))
	}
}

// watching reports whether the folder rel is watched.
func (w *watcher) watching(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.wds[rel]
	return ok
}

// complete reports the first failed add: until a full scan with a new
// watcher succeeds, changes may go unseen.
func (w *watcher) complete() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// changes is what the events read since the last look say.
type changes struct {
	dirty map[string]bool // folders whose files or entries changed
	gone  []string        // folders deleted, moved or replaced: every file below them is to be forgotten
	full  bool            // events were lost, or ignore rules changed: scan everything
}

// drain reads every pending event.
func (w *watcher) drain() (changes, error) {
	c := changes{dirty: map[string]bool{}}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			return c, nil
		}
		if err != nil {
			return c, fmt.Errorf("read inotify events: %w", err)
		}
		if n <= 0 {
			return c, nil
		}
		w.parse(buf[:n], &c)
	}
}

func (w *watcher) parse(b []byte, c *changes) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			c.full = true
			return
		}
		name := strings.TrimRight(string(b[unix.SizeofInotifyEvent:end]), "\x00")
		b = b[end:]
		if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
			c.full = true
			continue
		}
		rel, ok := w.rels[ev.Wd]
		if !ok {
			continue // a folder already forgotten
		}
		switch {
		case ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_IGNORED) != 0:
			if rel == "." {
				c.full = true
				continue
			}
			w.forget(rel, c)
			c.dirty[path.Dir(rel)] = true
		case name == "":
			// The folder's own attributes: nothing to rescan.
		case projectroot.IsIgnoreFile(name) && !w.skipped[ev.Wd]:
			c.full = true
		case ev.Mask&unix.IN_ISDIR != 0:
			// A folder below was made, removed or renamed: what was known
			// below it goes, and reading its parent finds it anew.
			sub := joinRel(rel, name)
			if _, known := w.wds[sub]; known {
				w.forget(sub, c)
			}
			c.dirty[rel] = true
		default:
			c.dirty[rel] = true
		}
	}
}

// forget stops watching rel and every folder below it, and records it as
// gone. The caller holds mu.
func (w *watcher) forget(rel string, c *changes) {
	c.gone = append(c.gone, rel)
	prefix := rel + "/"
	for sub, wd := range w.wds {
		if sub == rel || strings.HasPrefix(sub, prefix) {
			unix.InotifyRmWatch(w.fd, uint32(wd)) // fails for a folder already gone
			delete(w.wds, sub)
			delete(w.rels, wd)
			delete(w.skipped, wd)
		}
	}
}

func joinRel(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
