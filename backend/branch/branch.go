// Package branch reviews and merges the branch of a worktree session: a
// worktree's files against the commit it was made from, cut into hunks
// the user approves or rejects, and the approved ones planned and written
// into the project folder. The service holds the folder, stores the
// merge's session and tells the faces; this package knows git, the
// hunks and the files.
//
// A worktree session's branch is reviewed against the commit it was made
// from (its base): every file of the worktree that differs from it,
// committed on the branch or not, untracked files included and ignored
// ones not, cut into hunks by backend/diff like a proposed change. Hunks
// are numbered across the files from 1, in path order: the numbers of
// `pilot worktree merge --hunks`.
package branch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"pilot/backend/diff"
	"pilot/backend/git"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// ErrInvalid is wrapped by the errors of a decision that does not fit
// the branch (the service's ErrInvalid).
var ErrInvalid = store.ErrInvalid

// Branch is the branch of a worktree.
type Branch struct {
	Git      git.Git
	Name     string // pilot/NAME
	Base     string // the commit it was made from
	Worktree string // the worktree's folder
}

// File is one file of a branch with its hunks, numbered across the
// branch's files: its text hunks, or one hunk for the whole file (a
// binary file, a symbolic link, an empty file made or deleted: what has
// no lines to review), then one for a change of its executable bit. Each
// is approved or rejected like any hunk, so nothing a branch changes is
// left out of its review and its merge.
type File struct {
	git.BranchFile
	d     *diff.Diff // the text hunks; nil when there are none
	whole string     // the whole-file hunk's sentence ("": none)
	exec  string     // the executable-bit hunk's sentence ("": none)
	first int        // the number of its first hunk
}

// text is the number of its text hunks.
func (f File) text() int {
	if f.d == nil {
		return 0
	}
	return f.d.Len()
}

// count is the number of its hunks.
func (f File) count() int {
	n := f.text()
	if f.whole != "" {
		n++
	}
	if f.exec != "" {
		n++
	}
	return n
}

// Files diffs the branch: its files with their hunks, numbered.
func (b Branch) Files(ctx context.Context) ([]File, error) {
	changed, err := b.Git.BranchChanges(ctx, b.Worktree, b.Base)
	if err != nil {
		return nil, fmt.Errorf("reading branch %s against its base: %w", b.Name, err)
	}
	out := make([]File, len(changed))
	n := 1
	for i, f := range changed {
		bf := File{BranchFile: f, first: n}
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
func (f File) view() wire.FileChange {
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

// Review is the branch against its base, for review (without its
// session, which the caller knows).
func (b Branch) Review(ctx context.Context) (wire.BranchView, error) {
	files, err := b.Files(ctx)
	if err != nil {
		return wire.BranchView{}, err
	}
	v := wire.BranchView{Branch: b.Name, Base: abbrev(b.Base), Worktree: b.Worktree,
		Files: make([]wire.FileChange, len(files)), Version: Version(files)}
	for i, f := range files {
		v.Files[i] = f.view()
	}
	return v, nil
}

// Version names the content of a branch's changed files: their paths,
// modes, and base and current bytes.
func Version(files []File) string {
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
