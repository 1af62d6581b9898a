package ledger

import (
	"context"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"pilot/backend/projectroot"
)

// fullEvery: a watched project is still scanned in full when its last full
// scan is older than this, so that a change the watch could not see (a
// write through a mapping kept open, a file system that reports less than
// it should) is found within minutes, not never.
const fullEvery = 5 * time.Minute

// scan returns the project's manifest now. With a watcher from the last
// full scan, only the folders with changes since the last scan are read
// again (none at all when nothing changed); otherwise the whole project is.
func (t *Trees) scan(ctx context.Context, root *projectroot.Root, p *project) (*manifest, error) {
	if c, ok := p.look(root); ok {
		if len(c.dirty) == 0 && len(c.gone) == 0 {
			p.scans.none++
			return p.cur, nil
		}
		m, err := t.scanPart(ctx, root, p, c)
		if err != nil {
			p.stopWatching(nil)
			return nil, err
		}
		p.scans.partial++
		return m, nil
	}
	return t.scanFull(ctx, root, p)
}

// look returns what changed since the last scan, and false when the next
// scan must be full.
func (p *project) look(root *projectroot.Root) (changes, bool) {
	if p.w == nil || time.Since(p.fullAt) > fullEvery || excludeStamp(root.Dir()) != p.exclude {
		return changes{}, false
	}
	if err := p.w.complete(); err != nil {
		p.stopWatching(err)
		return changes{}, false
	}
	c, err := p.w.drain()
	if err != nil || c.full {
		return changes{}, false
	}
	return c, true
}

// stopWatching closes the watcher; with a reason, the project is not
// watched again (until Pilot restarts).
func (p *project) stopWatching(reason error) {
	if p.w != nil {
		p.w.close()
		p.w = nil
	}
	if reason != nil {
		p.noWatch = reason
	}
}

// excludeStamp is the mtime of the project's .git/info/exclude, whose
// rules apply to the whole project (0 when there is none).
func excludeStamp(dir string) int64 {
	fi, err := os.Stat(filepath.Join(dir, ".git", "info", "exclude"))
	if err != nil {
		return 0
	}
	return fi.ModTime().UnixNano()
}

// scanFull walks the whole project with a new watcher (when the project
// can be watched): entries of the last scan are reused for files whose
// stat did not change (and that were not racily clean); the others are
// read, hashed and stored.
func (t *Trees) scanFull(ctx context.Context, root *projectroot.Root, p *project) (*manifest, error) {
	start, err := root.Resolve("")
	if err != nil {
		return nil, err
	}
	p.stopWatching(nil)
	p.fullAt = time.Now()
	p.exclude = excludeStamp(root.Dir())
	if p.noWatch == nil {
		if p.w, err = newWatcher(start.Abs); err != nil {
			p.noWatch = err
		} else {
			p.w.add(start.Abs, start.Rel, false)
		}
	}
	w := p.w
	prev := p.cur
	m := &manifest{root: root.Dir(), scanned: time.Now().UnixNano(), files: make(map[string]entry, len(prev.files)+16),
		dirs: make(map[string]projectroot.Skipped, len(prev.dirs))}
	var mu sync.Mutex
	dir := func(e projectroot.Entry) bool {
		if w != nil {
			w.add(e.Abs, e.Rel, e.Skipped != projectroot.NotSkipped)
		}
		mu.Lock()
		m.dirs[e.Rel] = e.Skipped
		mu.Unlock()
		return true
	}
	if err := t.walk(ctx, root, []projectroot.Start{{Path: start}}, dir, prev, m, nil); err != nil {
		p.stopWatching(nil)
		return nil, err
	}
	if w != nil {
		if err := w.complete(); err != nil {
			p.stopWatching(err)
		}
	}
	p.scans.full++
	return m, nil
}

// scanPart reads again only the folders c names: it forgets what was below
// the folders gone, reads each changed folder's files and walks the new
// folders found in them (watching them first).
func (t *Trees) scanPart(ctx context.Context, root *projectroot.Root, p *project, c changes) (*manifest, error) {
	prev, w := p.cur, p.w
	m := &manifest{root: root.Dir(), scanned: time.Now().UnixNano(), files: maps.Clone(prev.files), dirs: maps.Clone(prev.dirs)}
	for _, g := range c.gone {
		delete(m.dirs, g)
	}
	if len(c.gone) > 0 {
		below := func(rel string) bool {
			for _, g := range c.gone {
				if strings.HasPrefix(rel, g+"/") {
					return true
				}
			}
			return false
		}
		maps.DeleteFunc(m.files, func(rel string, _ entry) bool { return below(rel) })
		maps.DeleteFunc(m.dirs, func(rel string, _ projectroot.Skipped) bool { return below(rel) })
	}
	var starts []projectroot.Start
	for d := range c.dirty {
		if !w.watching(d) {
			continue // forgotten: its parent is read again
		}
		sp, err := root.Resolve(d)
		if err != nil || sp.Rel != d {
			c.dirty[d] = false // now a link or unreachable: its files are gone
			continue
		}
		starts = append(starts, projectroot.Start{Path: sp, Skipped: prev.dirs[d]})
	}
	seen := map[string]bool{}
	var mu sync.Mutex
	dir := func(e projectroot.Entry) bool {
		if w.watching(e.Rel) {
			return false // known: its own events say when it changes
		}
		w.add(e.Abs, e.Rel, e.Skipped != projectroot.NotSkipped)
		mu.Lock()
		m.dirs[e.Rel] = e.Skipped
		mu.Unlock()
		return true
	}
	if err := t.walk(ctx, root, starts, dir, prev, m, seen); err != nil {
		return nil, err
	}
	for rel := range m.files {
		if _, ok := c.dirty[path.Dir(rel)]; ok && !seen[rel] {
			delete(m.files, rel)
		}
	}
	return m, nil
}

// walk reads the folders starts (and below them, as dir decides) into m,
// recording in seen (when not nil) every file found: the project's files
// and those the ledger lists without keeping them (in .git folders,
// ignored).
func (t *Trees) walk(ctx context.Context, root *projectroot.Root, starts []projectroot.Start, dir func(projectroot.Entry) bool, prev, m *manifest, seen map[string]bool) error {
	trusted := prev.scanned - racyMargin
	st, err := openStatter(root.Dir())
	if err != nil {
		return err
	}
	defer st.close()
	var mu sync.Mutex
	var firstErr error
	werr := root.WalkFolders(ctx, starts, true, dir, func(e projectroot.Entry) {
		if e.Type&^fs.ModeSymlink != 0 {
			return // devices, sockets, pipes: not project files
		}
		ent, ok, err := t.stat(st, e, prev, trusted)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if ok {
			m.files[e.Rel] = ent
			if seen != nil {
				seen[e.Rel] = true
			}
		}
	})
	if firstErr != nil {
		return firstErr
	}
	return werr
}

// stat returns the entry of one file found by the walk; ok is false when
// the file is gone or not a regular file or a link. A file the ledger
// does not keep (e.Skipped) is only lstat'ed, never read.
func (t *Trees) stat(st *statter, e projectroot.Entry, prev *manifest, trusted int64) (entry, bool, error) {
	ent, ok := st.lstat(e.Rel, e.Abs)
	if !ok {
		return entry{}, false, nil // removed meanwhile, or not a file
	}
	if e.Skipped != projectroot.NotSkipped {
		ent.skip = e.Skipped
		ent.hash = listHash(&ent)
		return ent, true, nil
	}
	old, had := prev.files[e.Rel]
	if had && old.skip == projectroot.NotSkipped && old.sameStat(ent) && old.mtime < trusted {
		ent.hash, ent.kept = old.hash, old.kept
		return ent, true, nil
	}
	base := ""
	if had && old.kept {
		base = hex.EncodeToString(old.hash[:])
	}
	if err := t.read(e, &ent, base); err != nil {
		return entry{}, false, err
	}
	return ent, true, nil
}
