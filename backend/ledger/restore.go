package ledger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Resolutions of a conflict (wire.ResolveMine, wire.ResolveCheckpoint).
const (
	ResolveMine       = "mine"
	ResolveCheckpoint = "checkpoint"
)

var (
	// ErrNothing: the checkpoint, file or message has nothing to restore.
	ErrNothing = errors.New("nothing to restore")
)

// target is one file a revert or rewind puts back.
type target struct {
	path   string
	want   store.FileSide // what to write (Hash "": remove the file)
	expect store.FileSide // what Pilot last wrote there
	merged []byte         // want's content when it was computed (a revert under later changes)
	// clash: the revert could not be merged with later changes to the
	// file, so it is always shown as a conflict.
	clash  string
	undoes []int64
	// madeDirs: when want removes the file, the folders its creation made
	// (removed too when empty); nil when not known.
	madeDirs []string
}

// Conflict is a file that changed since Pilot last wrote it (or whose
// revert clashes with later changes): restoring it would overwrite that.
type Conflict struct {
	Path   string
	Reason string
	// Expect is what Pilot last wrote, Disk what is there now, Want what
	// the restore would write; contents nil when absent or not kept.
	Expect, Disk, Want          FileState
	ExpectData, DiskData, Wants []byte
}

// Result is what a restore did, or would do.
type Result struct {
	Conflicts []Conflict        // unresolved: nothing was written
	Restored  []store.FileEvent // written
	Kept      []string          // conflicts resolved as "mine": left alone
	Missing   []store.FileEvent // not restorable: content not kept (Why says why)
	// NotKept are the files the steps undone listed without keeping them:
	// left as they are.
	NotKept    []store.ListedFile
	Checkpoint store.Checkpoint // the restore's own checkpoint (zero when nothing was written)
}

// history is each path's events in a session's done checkpoints, oldest first.
func history(cps []store.Checkpoint) map[string][]store.FileEvent {
	h := map[string][]store.FileEvent{}
	for _, c := range cps {
		if !c.Done {
			continue
		}
		for _, e := range c.Files {
			h[e.Path] = append(h[e.Path], e)
		}
	}
	return h
}

// RevertCheckpoint undoes one checkpoint: each file it touched goes back
// to what it was before. A file changed again later (by another change or
// command) has the checkpoint's own change taken out of it when that
// merges cleanly, and is shown as a conflict when not.
func (l *Ledger) RevertCheckpoint(ctx context.Context, id int64, res map[string]wire.Resolution) (Result, error) {
	l.gc.RLock()
	defer l.gc.RUnlock()
	cp, err := l.st.Checkpoints.Get(ctx, id)
	if err != nil {
		return Result{}, err
	}
	cps, err := l.st.Checkpoints.List(ctx, cp.SessionID)
	if err != nil {
		return Result{}, err
	}
	h := history(cps)
	var ts []target
	for _, e := range cp.Files {
		evs := h[e.Path]
		if len(evs) == 0 {
			continue
		}
		last := evs[len(evs)-1]
		t := target{path: e.Path, want: e.Before, expect: last.After, undoes: []int64{e.ID}}
		t.madeDirs = e.MadeDirs
		// Changed again since (and not back to what this checkpoint left):
		// take out only this checkpoint's own change.
		if last.ID != e.ID && !stateOf(last.After).Same(stateOf(e.After)) {
			t.merged, t.clash = l.unapply(e, last.After)
			if t.merged != nil {
				h, err := l.blobs.Put(t.merged, last.After.Hash)
				if err != nil {
					return Result{}, err
				}
				t.want = store.FileSide{Hash: h, Mode: last.After.Mode, Size: int64(len(t.merged)), Kept: true}
			}
		}
		ts = append(ts, t)
	}
	label := "Reverted: " + strings.TrimPrefix(cp.Label, "→ ")
	r, err := l.restore(ctx, cp.SessionID, store.CheckpointRevert, label, ts, res)
	r.NotKept = cp.Listed
	return r, err
}

// unapply takes the change of event e out of the file's later content
// (a three-way merge of before ← after onto current). It returns the
// merged content, or why it cannot.
func (l *Ledger) unapply(e store.FileEvent, current store.FileSide) ([]byte, string) {
	const why = "changed again after this change; taking this change out of it clashes with the later edits"
	if !e.Before.Kept || !e.After.Kept || !current.Kept || e.Before.Hash == "" || e.After.Hash == "" || current.Hash == "" {
		return nil, why
	}
	before, err1 := l.blobs.Get(e.Before.Hash)
	after, err2 := l.blobs.Get(e.After.Hash)
	cur, err3 := l.blobs.Get(current.Hash)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, why
	}
	merged, ok := merge3(string(after), string(before), string(cur))
	if !ok {
		return nil, why
	}
	return []byte(merged), ""
}

// RevertFile puts one file back to what it was before the session first
// changed it.
func (l *Ledger) RevertFile(ctx context.Context, sessionID int64, rel string, res map[string]wire.Resolution) (Result, error) {
	l.gc.RLock()
	defer l.gc.RUnlock()
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return Result{}, err
	}
	if ls := listings(cps)[rel]; len(ls) > 0 {
		return Result{}, fmt.Errorf("%s: the ledger lists it without keeping its content (%s), so it cannot be reverted: %w", rel, ls[len(ls)-1].Why, ErrNothing)
	}
	evs := history(cps)[rel]
	if len(evs) == 0 {
		return Result{}, fmt.Errorf("%s: this session did not change it: %w", rel, ErrNothing)
	}
	t := target{path: rel, want: evs[0].Before, expect: evs[len(evs)-1].After, madeDirs: evs[0].MadeDirs}
	for _, e := range evs {
		if e.UndoneBy == 0 {
			t.undoes = append(t.undoes, e.ID)
		}
	}
	return l.restore(ctx, sessionID, store.CheckpointRevert, "Reverted "+rel+" to before the session", []target{t}, res)
}

// Rewind puts every file the session changed from the user message
// messageID on back to what it was just before that message.
func (l *Ledger) Rewind(ctx context.Context, sessionID, messageID int64, label string, res map[string]wire.Resolution) (Result, error) {
	l.gc.RLock()
	defer l.gc.RUnlock()
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return Result{}, err
	}
	h := history(cps)
	byPath := map[string]*target{}
	var order []string
	for _, c := range cps {
		if !c.Done || c.MessageID < messageID {
			continue
		}
		for _, e := range c.Files {
			t := byPath[e.Path]
			if t == nil {
				evs := h[e.Path]
				t = &target{path: e.Path, want: e.Before, expect: evs[len(evs)-1].After, madeDirs: e.MadeDirs}
				byPath[e.Path] = t
				order = append(order, e.Path)
			}
			if e.UndoneBy == 0 {
				t.undoes = append(t.undoes, e.ID)
			}
		}
	}
	ts := make([]target, 0, len(order))
	for _, p := range order {
		ts = append(ts, *byPath[p])
	}
	r, err := l.restore(ctx, sessionID, store.CheckpointRewind, label, ts, res)
	for _, c := range cps {
		if c.Done && c.MessageID >= messageID {
			r.NotKept = append(r.NotKept, c.Listed...)
		}
	}
	return r, err
}

// restore checks every target against the disk, returns the conflicts
// that have no resolution without writing anything, and otherwise writes
// the targets as one checkpoint: pending before the first write, settled
// after the last, so a crash in between is repaired at the next start.
func (l *Ledger) restore(ctx context.Context, sessionID int64, kind store.CheckpointKind, label string, ts []target, res map[string]wire.Resolution) (Result, error) {
	root, err := l.rootOf(ctx, sessionID)
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	release, err := l.Hold(ctx, root.Dir(), fmt.Sprintf("a %s of session %d", kind, sessionID), nil)
	if err != nil {
		return Result{}, err
	}
	defer release()
	sort.Slice(ts, func(i, j int) bool { return ts[i].path < ts[j].path })

	var out Result
	cp := store.Checkpoint{SessionID: sessionID, Kind: kind, Label: label}
	type write struct {
		rel  string // where it lands, relative to the root
		want store.FileSide
		data []byte
		dirs []string
	}
	var writes []write
	for _, t := range ts {
		rel, err := l.place(root, t.path)
		if err != nil {
			out.Missing = append(out.Missing, store.FileEvent{Path: t.path, Why: err.Error()})
			continue
		}
		disk, diskData, err := ReadStateIn(root, rel)
		if err != nil {
			out.Missing = append(out.Missing, store.FileEvent{Path: t.path, Why: "cannot be read: " + err.Error()})
			continue
		}
		want := stateOf(t.want)
		if disk.Same(want) {
			continue // already as it should be
		}
		var data []byte
		if want.Exists() {
			data = t.merged
			if data == nil && t.want.Kept {
				data, err = l.blobs.Get(want.Hash)
			}
			if data == nil || err != nil {
				out.Missing = append(out.Missing, store.FileEvent{Path: t.path, Why: "its earlier content was not kept (over the size limit, or removed to stay under the retention limit)"})
				continue
			}
		}
		if t.clash != "" || !disk.Same(stateOf(t.expect)) {
			switch res[t.path] {
			case ResolveMine:
				out.Kept = append(out.Kept, t.path)
				continue
			case ResolveCheckpoint:
			default:
				c := Conflict{Path: t.path, Reason: t.clash, Expect: stateOf(t.expect), Disk: disk, Want: want, DiskData: diskData, Wants: data}
				if c.Reason == "" {
					c.Reason = "changed outside Pilot since Pilot last wrote it"
				}
				if t.expect.Kept && t.expect.Hash != "" {
					c.ExpectData, _ = l.blobs.Get(t.expect.Hash)
				}
				out.Conflicts = append(out.Conflicts, c)
				continue
			}
		}
		before := disk
		if disk.Exists() {
			if _, err := l.blobs.Put(diskData, t.expect.Hash); err != nil {
				return Result{}, fmt.Errorf("keeping %s before restoring it: %w", t.path, err)
			}
			before.Kept = true
		}
		cp.Files = append(cp.Files, store.FileEvent{Path: t.path, Before: side(before), After: t.want, Undoes: t.undoes})
		writes = append(writes, write{rel: rel, want: t.want, data: data, dirs: t.madeDirs})
	}
	if len(out.Conflicts) > 0 || len(writes) == 0 {
		return out, nil
	}
	cp, err = l.st.Checkpoints.Begin(ctx, cp)
	if err != nil {
		return Result{}, err
	}
	var werr error
	for _, w := range writes {
		if err := put(root, w.rel, w.want, w.data, w.dirs); err != nil {
			werr = fmt.Errorf("restoring %s: %w", w.rel, err)
			break
		}
	}
	if _, err := l.Settle(context.WithoutCancel(ctx), cp, root); err != nil {
		return Result{}, errors.Join(werr, err)
	}
	if werr != nil {
		return Result{}, werr
	}
	cp, err = l.st.Checkpoints.Get(ctx, cp.ID)
	if err != nil {
		return Result{}, err
	}
	out.Checkpoint = cp
	out.Restored = cp.Files
	return out, nil
}

// place is where rel lives in the project, relative to its root: its
// folder located through the root with no symbolic link on the way (so a
// restore never writes through a link, inside the project or out of it);
// the file itself is not followed.
func (l *Ledger) place(root *projectroot.Root, rel string) (string, error) {
	dir := path.Dir(rel)
	if dir == "." {
		return rel, nil
	}
	p, err := root.ResolveWrite(dir)
	if err != nil {
		return "", err
	}
	if p.Rel != dir {
		return "", fmt.Errorf("its folder %s is now a symbolic link (to %s); nothing was written through it", dir, p.Rel)
	}
	return path.Join(p.Rel, path.Base(rel)), nil
}

// put makes rel hold want, through the root: removes it, or writes the
// content (a file with its mode, or a symbolic link) atomically. A removed
// file takes with it the folders its creation made (madeDirs) once they
// are empty; when those are not known (nil), every folder it leaves empty.
func put(root *projectroot.Root, rel string, want store.FileSide, data []byte, madeDirs []string) error {
	if want.Hash == "" {
		if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if madeDirs == nil {
			removeEmptyDirs(root, path.Dir(rel))
			return nil
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			dir := path.Clean(madeDirs[i])
			if dir == "." || dir == ".." || strings.HasPrefix(dir, "../") || path.IsAbs(dir) {
				break
			}
			if err := root.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
				break // not empty: its parents are not empty either
			}
		}
		return nil
	}
	if _, err := root.MkdirAll(path.Dir(rel)); err != nil {
		return err
	}
	mode := fs.FileMode(want.Mode)
	if mode&fs.ModeSymlink != 0 {
		return root.SymlinkAtomic(string(data), rel)
	}
	if fi, err := root.FS().Lstat(rel); err == nil && fi.IsDir() {
		return fmt.Errorf("a folder now stands where the file was; move it away and try again")
	}
	return root.WriteAtomic(rel, data, mode)
}

// removeEmptyDirs removes dir and its parents up to (not including) top
// while they are empty: the folders a created file needed.
func removeEmptyDirs(root *projectroot.Root, dir string) {
	for dir != "." && dir != "/" && dir != "" {
		if root.Remove(dir) != nil {
			return
		}
		dir = path.Dir(dir)
	}
}
