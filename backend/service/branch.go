package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pilot/backend/diff"
	"pilot/backend/git"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// A worktree session's branch is reviewed against the commit it was made
// from (Worktree.Base): every file of the worktree that differs from it,
// committed on the branch or not, untracked files included and ignored
// ones not, cut into hunks by backend/diff like a proposed change. Hunks
// are numbered across the files from 1, in path order: the numbers of
// `pilot worktree merge --hunks`.

// branchOf is a worktree session with its project and git.
type branchOf struct {
	sess store.Session
	proj store.Project
	git  git.Git
}

// worktreeSession loads a session that works in its own worktree, or says
// why it has no branch.
func (w *Service) worktreeSession(ctx context.Context, sessionID int64) (branchOf, error) {
	if err := w.waitStarted(ctx); err != nil {
		return branchOf{}, err
	}
	sess, err := w.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return branchOf{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	if sess.Worktree.Path == "" {
		return branchOf{}, fmt.Errorf("session %d works in the project folder, not in a worktree, so it has no branch: its Changes view shows what it changed: %w", sessionID, ErrInvalid)
	}
	proj, err := w.project(ctx, sess.ProjectID)
	if err != nil {
		return branchOf{}, err
	}
	if _, err := os.Stat(sess.Worktree.Path); err != nil {
		return branchOf{}, fmt.Errorf("the worktree of session %d (%s) is gone, so its branch %s cannot be read: %w", sessionID, sess.Worktree.Path, sess.Worktree.Branch, ErrInvalid)
	}
	g, err := git.Find(ctx)
	if err != nil {
		return branchOf{}, err
	}
	return branchOf{sess: sess, proj: proj, git: g}, nil
}

// branchFile is one file of a branch with its hunks, numbered across the
// branch's files: its text hunks, or one hunk for the whole file (a
// binary file, a symbolic link, an empty file made or deleted: what has
// no lines to review), then one for a change of its executable bit. Each
// is approved or rejected like any hunk, so nothing a branch changes is
// left out of its review and its merge.
type branchFile struct {
	git.BranchFile
	d     *diff.Diff // the text hunks; nil when there are none
	whole string     // the whole-file hunk's sentence ("": none)
	exec  string     // the executable-bit hunk's sentence ("": none)
	first int        // the number of its first hunk
}

// text is the number of its text hunks.
func (f branchFile) text() int {
	if f.d == nil {
		return 0
	}
	return f.d.Len()
}

// count is the number of its hunks.
func (f branchFile) count() int {
	n := f.text()
	if f.whole != "" {
		n++
	}
	if f.exec != "" {
		n++
	}
	return n
}

// files diffs the branch: its files with their hunks, numbered.
func (b branchOf) files(ctx context.Context) ([]branchFile, error) {
	changed, err := b.git.BranchChanges(ctx, b.sess.Worktree.Path, b.sess.Worktree.Base)
	if err != nil {
		return nil, fmt.Errorf("reading branch %s against its base: %w", b.sess.Worktree.Branch, err)
	}
	out := make([]branchFile, len(changed))
	n := 1
	for i, f := range changed {
		bf := branchFile{BranchFile: f, first: n}
		link := f.Mode&fs.ModeSymlink != 0 || f.BaseMode&fs.ModeSymlink != 0
		if link || f.Binary {
			bf.whole = wholeSentence(f)
		} else if d := diff.Compute(string(f.Base), string(f.Now)); d.Len() > 0 {
			bf.d = d
		} else if f.InBase != f.Exists {
			bf.whole = wholeSentence(f) // an empty file made or deleted
		}
		if f.InBase && f.Exists && !link && !git.SameKind(f.BaseMode, f.Mode) {
			if f.Mode&0o100 != 0 {
				bf.exec = fmt.Sprintf("The branch makes %s executable.", f.Path)
			} else {
				bf.exec = fmt.Sprintf("The branch makes %s no longer executable.", f.Path)
			}
		}
		out[i] = bf
		n += bf.count()
	}
	return out, nil
}

// wholeSentence says what a branch does to a file reviewed whole.
func wholeSentence(f git.BranchFile) string {
	kind := func(m fs.FileMode, data []byte) string {
		switch {
		case m&fs.ModeSymlink != 0:
			return "the symbolic link " + f.Path + " (to " + string(data) + ")"
		case bytes.IndexByte(data, 0) >= 0:
			return fmt.Sprintf("the binary file %s (%d bytes)", f.Path, len(data))
		case len(data) == 0:
			return "the empty file " + f.Path
		}
		return fmt.Sprintf("the file %s (%d bytes)", f.Path, len(data))
	}
	switch {
	case !f.InBase:
		return "The branch adds " + kind(f.Mode, f.Now) + "."
	case !f.Exists:
		return "The branch deletes " + kind(f.BaseMode, f.Base) + "."
	}
	return "The branch replaces " + kind(f.BaseMode, f.Base) + " with " + strings.Replace(kind(f.Mode, f.Now), " "+f.Path, "", 1) + "."
}

// view is the file in the review's form, its hunks numbered across files.
func (f branchFile) view() wire.FileChange {
	fc := wire.FileChange{Path: f.Path, IsNew: !f.InBase, NewText: string(f.Now), Emptied: !f.Exists || len(f.Now) == 0, Hunks: []wire.Hunk{}}
	if f.d != nil {
		fc.Hunks = f.d.Hunks()
	}
	for _, note := range []string{f.whole, f.exec} {
		if note != "" {
			fc.Hunks = append(fc.Hunks, wire.Hunk{Note: note, Lines: []wire.DiffLine{}})
		}
	}
	for i := range fc.Hunks {
		fc.Hunks[i].Index = f.first + i
	}
	return fc
}

// GetBranch is a worktree session's branch against its base, for review.
func (w *Service) GetBranch(ctx context.Context, sessionID int64) (wire.BranchView, error) {
	b, err := w.worktreeSession(ctx, sessionID)
	if err != nil {
		return wire.BranchView{}, err
	}
	files, err := b.files(ctx)
	if err != nil {
		return wire.BranchView{}, err
	}
	v := wire.BranchView{SessionID: sessionID, Branch: b.sess.Worktree.Branch, Base: abbrev(b.sess.Worktree.Base),
		Worktree: b.sess.Worktree.Path, Files: make([]wire.FileChange, len(files)), Version: branchVersion(files)}
	for i, f := range files {
		v.Files[i] = f.view()
	}
	return v, nil
}

// branchVersion names the content of a branch's changed files: their
// paths, modes, and base and current bytes.
func branchVersion(files []branchFile) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%o %t %o %t %d %d\x00", f.Path, f.BaseMode, f.InBase, f.Mode, f.Exists, len(f.Base), len(f.Now))
		h.Write(f.Base)
		h.Write(f.Now)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// abbrev shortens a commit id for display.
func abbrev(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	ea, err1 := filepath.EvalSymlinks(a)
	eb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ea == eb
}
