package ledger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sync"

	"pilot/backend/projectroot"
	"pilot/backend/store"
)

// Ledger records checkpoints in the store with their content in Blobs,
// and restores them. Safe for concurrent use.
type Ledger struct {
	st    *store.Store
	blobs *Blobs
	trees *Trees
	log   *slog.Logger

	locks   string // the folder of the folders' lock files (Hold)
	mu      sync.Mutex
	folders map[string]*folder // by folder: one change-making work at a time (Hold)
	pinned  map[string]int     // images stored, not yet in a message (PutImage)

	// gc: content stored but not yet referenced by a checkpoint is held
	// with RLock until it is; Sweep takes Lock, so it never removes it.
	gc sync.RWMutex
}

// Open opens the ledger of a data directory: blobs and tree manifests
// under dir (paths.Checkpoints), records in st. It is also where st keeps
// messages' images (store.SetImages).
func Open(dir string, st *store.Store, limits Limits, log *slog.Logger) (*Ledger, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b, err := OpenBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: %w", dir, err)
	}
	l := &Ledger{st: st, blobs: b, trees: NewTrees(b, filepath.Join(dir, "trees"), limits), log: log,
		locks: filepath.Join(dir, "locks"), folders: map[string]*folder{}}
	l.trees.log = log
	if st != nil {
		st.SetImages(l) // messages' images live in the blobs too
	}
	return l, nil
}

// Close stops watching the projects' folders for changes.
func (l *Ledger) Close() { l.trees.Close() }

// Blobs is the content store.
func (l *Ledger) Blobs() *Blobs { return l.blobs }

// Limits are the limits of what a command's checkpoint keeps.
func (l *Ledger) Limits() Limits { return l.trees.Limits() }

// side turns a file state into its stored form.
func side(s FileState) store.FileSide {
	return store.FileSide{Hash: s.Hash, Mode: uint32(s.Mode), Size: s.Size, Kept: s.Kept || s.Hash == ""}
}

// stateOf is the inverse of side.
func stateOf(s store.FileSide) FileState {
	return FileState{Hash: s.Hash, Mode: fs.FileMode(s.Mode), Size: s.Size, Kept: s.Kept}
}

// EditFile is one file of an approved change: its content before and the
// content to be written.
type EditFile struct {
	Path   string // project-relative
	Before FileState
	Old    []byte // content before (nil when the file does not exist)
	New    []byte
	Mode   fs.FileMode // of the file written: permission bits, plus fs.ModeSymlink for a link (New its target)
	Remove bool        // the change deletes the file (New and Mode unused)
}

// BeginEdit stores the content before and after of each file of an
// approved change and records a pending checkpoint, before anything is
// written: the change's intent, synced to disk, which Repair completes or
// undoes after a crash (recover.go). Call Settle once the files are written (or failed to be).
func (l *Ledger) BeginEdit(ctx context.Context, sessionID, toolCallID int64, label string, files []EditFile) (store.Checkpoint, error) {
	l.gc.RLock()
	defer l.gc.RUnlock()
	cp := store.Checkpoint{SessionID: sessionID, ToolCallID: toolCallID, Kind: store.CheckpointEdit, Label: label}
	var rootDir string
	if root, err := l.rootOf(ctx, sessionID); err == nil {
		rootDir = root.Dir()
		root.Close()
	}
	var kept []string
	for _, f := range files {
		before := f.Before
		if before.Exists() {
			if _, err := l.blobs.Put(f.Old, ""); err != nil {
				return store.Checkpoint{}, fmt.Errorf("keeping %s before the change: %w", f.Path, err)
			}
			before.Kept = true
			kept = append(kept, before.Hash)
		}
		var after FileState // none: the change deletes the file
		if !f.Remove {
			h, err := l.blobs.Put(f.New, before.Hash)
			if err != nil {
				return store.Checkpoint{}, fmt.Errorf("keeping %s after the change: %w", f.Path, err)
			}
			kept = append(kept, h)
			after = FileState{Hash: h, Mode: f.Mode & (fs.ModePerm | fs.ModeSymlink), Size: int64(len(f.New)), Kept: true}
		}
		if before.Same(after) {
			continue
		}
		ev := store.FileEvent{Path: f.Path, Before: side(before), After: side(after)}
		if !before.Exists() && rootDir != "" {
			ev.MadeDirs = missingDirs(rootDir, f.Path)
		}
		cp.Files = append(cp.Files, ev)
	}
	if len(cp.Files) == 0 {
		return store.Checkpoint{}, nil
	}
	// The intent must survive whatever stops Pilot between two renames,
	// a power loss included: the contents are synced, then the record
	// (Checkpoints.Begin commits durably).
	if err := l.blobs.Sync(kept...); err != nil {
		return store.Checkpoint{}, fmt.Errorf("keeping the files of the change: %w", err)
	}
	return l.st.Checkpoints.Begin(ctx, cp)
}

// missingDirs returns the folders of rel (outermost first) that do not
// exist under root yet: the ones writing rel will make. It is never nil, so
// that the event records them as known.
func missingDirs(root, rel string) []string {
	out := []string{}
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir))); errors.Is(err, fs.ErrNotExist) {
			out = append([]string{dir}, out...)
		} else {
			break // it exists, and so do its parents
		}
	}
	return out
}

// Settle finishes a pending checkpoint by looking at the files: an event
// whose file holds its after state happened; one whose file still holds
// its before state did not and is dropped; a file holding neither (changed
// again meanwhile) keeps its event. Temporary files an interrupted write
// left next to them are removed. It reports whether the checkpoint remains.
func (l *Ledger) Settle(ctx context.Context, cp store.Checkpoint, root *projectroot.Root) (bool, error) {
	if cp.ID == 0 {
		return false, nil
	}
	var drop []int64
	for _, e := range cp.Files {
		root.RemoveTemps(e.Path)
		cur, _, err := ReadStateIn(root, e.Path)
		if err != nil {
			l.log.Warn("settling a checkpoint", "path", e.Path, "err", err)
			continue
		}
		if !cur.Same(stateOf(e.After)) && cur.Same(stateOf(e.Before)) {
			drop = append(drop, e.ID)
		}
	}
	return l.st.Checkpoints.Finish(ctx, cp.ID, drop)
}

// Repair settles the checkpoints a crash left pending (Pilot killed while
// a change, a revert or a rewind was being written). An approved change
// cut short between two files is completed or undone first (recover.go),
// and its tool call's result says which. Call it at start-up, after the
// store's Sessions.RepairAll and before any turn runs.
func (l *Ledger) Repair(ctx context.Context) error {
	cps, err := l.st.Checkpoints.Pending(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, cp := range cps {
		root, err := l.rootOf(ctx, cp.SessionID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if cp.Kind == store.CheckpointEdit {
			r, err := l.recoverEdit(ctx, cp, root)
			if err != nil {
				errs = append(errs, err)
			}
			l.log.Info("a change a crash interrupted", "checkpoint", cp.ID, "outcome", r.Outcome, "others", r.Others, "failed", r.Failed)
			continue
		}
		if _, err := l.Settle(ctx, cp, root); err != nil {
			errs = append(errs, err)
		}
		root.Close()
	}
	return errors.Join(errs...)
}

// rootOf opens the folder a session works in (its worktree, or the
// project folder); the caller closes it.
func (l *Ledger) rootOf(ctx context.Context, sessionID int64) (*projectroot.Root, error) {
	sess, err := l.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	proj, err := l.st.Projects.Get(ctx, sess.ProjectID)
	if err != nil {
		return nil, err
	}
	return projectroot.New(sess.Root(proj.Path))
}
