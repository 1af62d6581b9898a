package branch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"

	"pilot/backend/ledger"
	"pilot/backend/projectroot"
	"pilot/backend/wire"
)

// Merging a branch brings the hunks the user approved into the project
// folder as one change of a project-folder session, written through the
// ledger like an approved edit: the change's intent is recorded (synced)
// before the first file is replaced, so a kill leaves the folder as it
// was or, once the next start repaired it, fully merged; and the
// session's Changes view can undo it.
//
// A file the user changed in the project folder and did not commit is a
// conflict: without Force nothing at all is written, so the user's work
// is never overwritten. With Force such a file is merged three-way (git
// merge-file: the branch's approved change onto the file as it is) when
// the hunks still apply, else it stays a conflict and the other files are
// merged. A file that changed only by commits since the base is merged
// three-way the same way, with or without Force.
//
// A merge is three steps: Prepare reads the branch and the decisions
// (before the folder is held), Plan reads the folder and decides each
// file (while it is held), Write writes them through the ledger.

// Merge is a merge being made: the branch, what the user approved of it
// and the project's last commit of those files.
type Merge struct {
	b       Branch
	project string
	force   bool
	wants   []want
	heads   map[string][]byte
}

// want is what the user approved of one file.
type want struct {
	f      File
	result []byte // the text hunks applied (text)
	remove bool   // every text hunk of a deleted file approved
	text   bool   // some text hunk approved
	whole  bool   // the whole-file hunk approved: the worktree's file as it is
	exec   bool   // the executable-bit hunk approved
}

// Prepare reads the branch and checks the decisions m against it: the
// project folder must be the top of its repository, and the branch as
// the user read it (m.Version).
func (b Branch) Prepare(ctx context.Context, project string, m wire.BranchMerge) (*Merge, error) {
	if err := b.atTop(ctx, project); err != nil {
		return nil, err
	}
	files, err := b.Files(ctx)
	if err != nil {
		return nil, err
	}
	if m.Version != "" && m.Version != Version(files) {
		return nil, fmt.Errorf("branch %s changed since it was read for review, so the decisions may not fit its hunks any more: nothing was merged; read the branch again and decide on what it holds now: %w", b.Name, ErrInvalid)
	}
	wants, paths, err := b.approved(files, m.Files)
	if err != nil {
		return nil, err
	}
	heads, err := b.Git.BlobsAt(ctx, project, "HEAD", paths)
	if err != nil {
		return nil, fmt.Errorf("reading the project's last commit: %w", err)
	}
	return &Merge{b: b, project: project, force: m.Force, wants: wants, heads: heads}, nil
}

// atTop refuses a project folder below the top of its repository.
func (b Branch) atTop(ctx context.Context, project string) error {
	top, err := b.Git.Toplevel(ctx, project)
	if err != nil {
		return err
	}
	if !sameDir(top, project) {
		return fmt.Errorf("the project folder %s is inside the git repository %s, and Pilot merges a branch only into the top folder of a repository: open %s as the project and merge again: %w", project, top, top, ErrInvalid)
	}
	return nil
}

// approved is what the decisions approve of each file, the files'
// approved hunks applied; a file with nothing approved is left out.
func (b Branch) approved(files []File, decisions []wire.FileDecision) ([]want, []string, error) {
	byPath := map[string]File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	var wants []want
	var paths []string
	for _, d := range decisions {
		f, ok := byPath[d.Path]
		if !ok {
			return nil, nil, fmt.Errorf("%s is not a file branch %s changed (see its files with GetBranch or the Branch view): %w", d.Path, b.Name, ErrInvalid)
		}
		if len(d.Hunks) != f.count() {
			return nil, nil, fmt.Errorf("%s has %d hunks on branch %s, and the decision names %d: read the branch again and decide on each hunk: %w", f.Path, f.count(), b.Name, len(d.Hunks), ErrInvalid)
		}
		nt := f.text()
		x := want{f: f, whole: f.whole != "" && d.Hunks[nt], exec: f.exec != "" && d.Hunks[len(d.Hunks)-1]}
		all := true
		for _, ok := range d.Hunks[:nt] {
			all, x.text = all && ok, x.text || ok
		}
		if !x.text && !x.whole && !x.exec {
			continue
		}
		if x.text {
			text, err := f.d.Apply(d.Hunks[:nt])
			if err != nil {
				return nil, nil, err
			}
			x.result, x.remove = []byte(text), !f.Exists && all
		}
		wants = append(wants, x)
		paths = append(paths, f.Path)
	}
	return wants, paths, nil
}

// Plan decides each approved file against the project folder as it is
// (root, held by the caller): the edits to write, and the result with the
// files merged and the conflicts. With conflicts and no Force there is
// nothing to write.
func (m *Merge) Plan(ctx context.Context, root *projectroot.Root) ([]ledger.EditFile, wire.MergeResult, error) {
	res := wire.MergeResult{Merged: []string{}, Conflicts: []wire.MergeConflict{}}
	var plans []plan
	for _, x := range m.wants {
		p, why, err := m.planFile(ctx, root, x)
		if err != nil {
			return nil, wire.MergeResult{}, err
		}
		if why != "" {
			res.Conflicts = append(res.Conflicts, wire.MergeConflict{Path: x.f.Path, Why: why})
			continue
		}
		plans = append(plans, p)
	}
	if len(res.Conflicts) > 0 && !m.force {
		return nil, res, nil
	}
	var edits []ledger.EditFile
	for _, p := range plans {
		res.Merged = append(res.Merged, p.edit.Path)
		if !p.same {
			edits = append(edits, p.edit)
		}
	}
	return edits, res, nil
}

// plan is one file a merge is about to write.
type plan struct {
	edit ledger.EditFile
	same bool // the folder already holds the result: nothing to write
}

// planFile decides one file: what to write, or why it is a conflict.
func (m *Merge) planFile(ctx context.Context, root *projectroot.Root, x want) (plan, string, error) {
	p, b := x.f.Path, m.b
	cur, curData, err := ledger.ReadStateIn(root, p)
	if err != nil {
		return plan{}, fmt.Sprintf("%s could not be read in the project folder (%v), so it was not merged.", p, err), nil
	}
	head, inHead := m.heads[p]
	if (cur.Exists() != inHead || !bytes.Equal(curData, head)) && !m.force {
		return plan{}, fmt.Sprintf("You changed %s in the project folder and have not committed it, so it was not merged and your change is kept. Commit or stash your change and merge again, or merge with force to merge the branch's hunks into it where they still apply.", p), nil
	}
	curLink := cur.Mode&fs.ModeSymlink != 0
	pl := plan{edit: ledger.EditFile{Path: p, Before: cur, Old: curData, Mode: 0o644}}
	if cur.Exists() && !curLink {
		pl.edit.Mode = cur.Mode.Perm()
	} else if x.f.Exists && x.f.Mode&fs.ModeSymlink == 0 {
		pl.edit.Mode = x.f.Mode.Perm()
	}
	if x.exec {
		pl.edit.Mode = withExec(pl.edit.Mode, x.f.Mode&0o100 != 0)
	}
	atBase := cur.Exists() == x.f.InBase && bytes.Equal(curData, x.f.Base) && (!cur.Exists() || curLink == (x.f.BaseMode&fs.ModeSymlink != 0))
	switch {
	case x.whole:
		atNow := cur.Exists() == x.f.Exists && bytes.Equal(curData, x.f.Now) && (!cur.Exists() || curLink == (x.f.Mode&fs.ModeSymlink != 0))
		if !atBase && !atNow {
			return plan{}, fmt.Sprintf("%s changed in the project folder since branch %s was made, and %s is merged only whole, over the file as the branch found it, so it was not merged: copy it from the worktree %s by hand.", p, b.Name, wholeKind(x.f), b.Worktree), nil
		}
		pl.edit.New, pl.edit.Remove = x.f.Now, !x.f.Exists
		if x.f.Mode&fs.ModeSymlink != 0 {
			pl.edit.Mode = x.f.Mode
		}
	case curLink:
		return plan{}, fmt.Sprintf("%s is a symbolic link in the project folder, and branch %s changes it as a file, so it was not merged: merge it by hand from the worktree %s.", p, b.Name, b.Worktree), nil
	case !x.text: // only the executable bit
		if !cur.Exists() {
			return plan{}, fmt.Sprintf("%s was deleted in the project folder since branch %s was made, so its executable bit was not changed.", p, b.Name), nil
		}
		pl.edit.New = curData
	case atBase:
		pl.edit.New, pl.edit.Remove = x.result, x.remove
	case !cur.Exists() || !x.f.InBase || x.remove:
		return plan{}, fmt.Sprintf("%s was created or deleted in the project folder since branch %s was made, so the branch's change to it does not apply: merge it by hand from the worktree %s.", p, b.Name, b.Worktree), nil
	default:
		merged, clean, err := b.Git.MergeFile(ctx, curData, x.f.Base, x.result)
		if err != nil {
			return plan{}, "", err
		}
		if !clean {
			return plan{}, fmt.Sprintf("%s changed in the project folder since branch %s was made, and the approved hunks no longer apply to it where it changed, so it was not merged: merge it by hand from the worktree %s.", p, b.Name, b.Worktree), nil
		}
		pl.edit.New = merged
	}
	if pl.edit.Remove {
		pl.same = !cur.Exists()
	} else {
		pl.same = cur.Exists() && bytes.Equal(pl.edit.New, curData) && cur.Mode == pl.edit.Mode
	}
	return pl, "", nil
}

// Write writes the files of a merge through the ledger lg as a change of
// session sessionID: intent first, then each file atomically, then the
// checkpoint settled, and settled called (the caller tells the faces). A
// write that fails puts the files already written back, and nothing is
// merged.
func Write(ctx context.Context, lg *ledger.Ledger, log *slog.Logger, root *projectroot.Root, sessionID int64, branch string, edits []ledger.EditFile, settled func()) error {
	label := fmt.Sprintf("Merged %d %s from branch %s", len(edits), plural(len(edits), "file", "files"), branch)
	cp, err := lg.BeginEdit(ctx, sessionID, 0, label, edits)
	if err != nil {
		return fmt.Errorf("recording the merge before writing it (nothing was written): %w", err)
	}
	werr := writeAll(root, edits)
	if _, err := lg.Settle(ctx, cp, root); err != nil {
		log.Error("settling a merge's checkpoint", "session", sessionID, "checkpoint", cp.ID, "err", err)
	}
	settled()
	if werr != nil {
		return fmt.Errorf("%w; the files already written were put back, so nothing was merged", werr)
	}
	return nil
}

// writeAll writes the edits, or none: a failure puts back those already
// written.
func writeAll(root *projectroot.Root, edits []ledger.EditFile) error {
	var werr error
	var done []ledger.EditFile
	for _, e := range edits {
		// The file may have changed since it was read (an editor saved
		// it): never write over that.
		if cur, _, err := ledger.ReadStateIn(root, e.Path); err != nil || !cur.Same(e.Before) {
			werr = fmt.Errorf("%s changed in the project folder while the merge was being written, so it was not overwritten", e.Path)
			break
		}
		if werr = writeEdit(root, e.Path, e.Remove, e.New, e.Mode); werr != nil {
			werr = fmt.Errorf("writing %s: %w", e.Path, werr)
			break
		}
		done = append(done, e)
	}
	if werr == nil {
		return nil
	}
	for i := len(done) - 1; i >= 0; i-- {
		e := done[i]
		_ = writeEdit(root, e.Path, !e.Before.Exists(), e.Old, e.Before.Mode)
	}
	return werr
}

// writeEdit makes rel hold data (atomically; a symbolic link to data when
// mode says so) or removes it.
func writeEdit(root *projectroot.Root, rel string, remove bool, data []byte, mode fs.FileMode) error {
	if remove {
		if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if _, err := root.MkdirAll(path.Dir(rel)); err != nil {
		return err
	}
	if mode&fs.ModeSymlink != 0 {
		return root.SymlinkAtomic(string(data), rel)
	}
	return root.WriteAtomic(rel, data, mode.Perm())
}

// withExec is perm with the executable bits set where it is readable (on),
// or cleared, as git checks a file out.
func withExec(perm fs.FileMode, on bool) fs.FileMode {
	if on {
		return perm | (perm&0o444)>>2
	}
	return perm &^ 0o111
}

// wholeKind names what a file reviewed whole is on the branch.
func wholeKind(f File) string {
	switch {
	case f.Mode&fs.ModeSymlink != 0 || f.BaseMode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case f.Binary:
		return "a binary file"
	}
	return "an empty file"
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	ea, err1 := filepath.EvalSymlinks(a)
	eb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ea == eb
}
