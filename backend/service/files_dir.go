package service

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"pilot/backend/namesort"
	"pilot/backend/projectroot"
	"pilot/backend/wire"
)

// The file tree lists a folder in pages (ListDir). The first page of a
// folder lists it whole (one getdents64 pass, no stat per file), sorts it in
// the window's collation order and keeps that listing, so that the next
// pages are cut from the same order; a page asked for with the version of
// a listing that the folder's modification time shows is stale lists it
// again, and the window drops the pages of the old version.

// treeKept is how many folder listings are kept (the most recently used).
const treeKept = 8

// racyWindow: a listing made within this time after the folder last
// changed is not trusted to be current by the folder's modification time
// alone (the kernel stamps it from a coarse clock), as git does with its
// index; such a folder is listed again for every page until it settles.
const racyWindow = time.Second

// listingKey names a kept listing: the folder shown (the project's or a
// worktree's, see viewRoot), one of its folders and the collation locale.
type listingKey struct {
	root, dir, locale string
}

// treeListing is one folder, sorted: names[:dirs] are its folders.
type treeListing struct {
	version  int64
	root     string // the folder shown, absolute (projectroot.Root.Dir)
	rel      string // the folder, "" for the root
	names    []string
	dirs     int
	links    map[string]bool
	mtime    time.Time // the folder's, stat'ed before it was read
	listedAt time.Time
	used     uint64
}

// sameEntries reports whether two listings hold the same entries.
func (l *treeListing) sameEntries(o *treeListing) bool {
	return l.dirs == o.dirs && slices.Equal(l.names, o.names) && len(l.links) == len(o.links) &&
		!slices.ContainsFunc(l.names, func(n string) bool { return l.links[n] != o.links[n] })
}

// treeListings are the kept listings, guarded by their own mutex (a
// listing is made outside it).
type treeListings struct {
	mu      sync.Mutex
	m       map[listingKey]*treeListing
	tick    uint64
	version int64
}

// get returns the kept listing of k if it has the given version.
func (t *treeListings) get(k listingKey, version int64) *treeListing {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.m[k]
	if l == nil || version == 0 || l.version != version {
		return nil
	}
	t.tick++
	l.used = t.tick
	return l
}

// put keeps l as the listing of k, with the version of the kept one if
// the entries are the same, else a new version; it drops the least
// recently used listing past treeKept.
func (t *treeListings) put(k listingKey, l *treeListing) *treeListing {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[listingKey]*treeListing{}
	}
	if old := t.m[k]; old != nil && old.sameEntries(l) {
		l.version = old.version
	} else {
		t.version++
		l.version = t.version
	}
	t.tick++
	l.used = t.tick
	t.m[k] = l
	if len(t.m) > treeKept {
		var oldest listingKey
		var min uint64 = ^uint64(0)
		for key, v := range t.m {
			if v.used < min {
				oldest, min = key, v.used
			}
		}
		delete(t.m, oldest)
	}
	return l
}

// ListDir returns one page of a folder for the file tree: of the folder
// session sessionID works in (its worktree, or the project folder; 0: the
// project folder, see viewRoot), without what the project ignores,
// marking the files the active session changed, and those its language
// servers found errors in, when it works in that folder (marks are read
// for every page, so they are current).
func (fs *Files) ListDir(ctx context.Context, projectID, sessionID int64, q wire.DirPageQuery) (wire.DirPage, error) {
	if q.Offset < 0 || q.Limit < 1 || q.Limit > wire.DirPageMax {
		return wire.DirPage{}, fmt.Errorf("a page of the file tree starts at 0 or later and holds 1 to %d entries (asked: offset %d, limit %d)", wire.DirPageMax, q.Offset, q.Limit)
	}
	root, done, err := fs.viewRoot(ctx, projectID, sessionID)
	if err != nil {
		return wire.DirPage{}, err
	}
	defer done()
	dir, err := root.Resolve(q.Dir)
	if err != nil {
		return wire.DirPage{}, err
	}
	k := listingKey{root.Dir(), dir.Rel, q.Locale}
	l := fs.tree.get(k, q.Version)
	if l != nil {
		if fi, _, err := root.Stat(dir.Rel); err != nil || !fi.ModTime().Equal(l.mtime) || l.listedAt.Sub(l.mtime) < racyWindow {
			l = nil
		}
	}
	if l == nil {
		if l, err = fs.listTree(root, q); err != nil {
			return wire.DirPage{}, err
		}
		l = fs.tree.put(k, l)
	}
	return fs.page(l, q.Offset, q.Limit), nil
}

// listTree reads and sorts the folder q.Dir.
func (fs *Files) listTree(root *projectroot.Root, q wire.DirPageQuery) (*treeListing, error) {
	var mtime time.Time
	if fi, _, err := root.Stat(q.Dir); err == nil {
		mtime = fi.ModTime()
	}
	listedAt := time.Now()
	ls, err := root.ListNames(q.Dir)
	if err != nil {
		return nil, err
	}
	l := &treeListing{root: root.Dir(), rel: ls.Dir.Rel, mtime: mtime, listedAt: listedAt, links: make(map[string]bool, len(ls.Links)), dirs: len(ls.Dirs)}
	if l.rel == "." {
		l.rel = ""
	}
	for _, n := range ls.Links {
		l.links[n] = true
	}
	namesort.Sort(ls.Dirs, q.Locale)
	namesort.Sort(ls.Files, q.Locale)
	l.names = append(ls.Dirs, ls.Files...)
	return l, nil
}

// page cuts entries [offset, offset+limit) out of l, with their marks.
func (fs *Files) page(l *treeListing, offset, limit int) wire.DirPage {
	p := wire.DirPage{Dir: l.rel, Version: l.version, Total: len(l.names), Offset: offset, Entries: []wire.TreeEntry{}}
	prefix := ""
	if l.rel != "" {
		prefix = l.rel + "/"
	}
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	marks := fs.changes.root == l.root // the active session works in this folder
	var errs map[string]int            // its files with errors after their last check
	if marks {
		errs = fs.agent.FileErrors(fs.changes.active)
	}
	for i := offset; i < min(len(l.names), offset+limit); i++ {
		n := l.names[i]
		p.Entries = append(p.Entries, wire.TreeEntry{Name: n, Dir: i < l.dirs, Link: l.links[n], Changed: marks && fs.changes.isChanged(prefix+n), Errors: errs[prefix+n]})
	}
	return p
}
