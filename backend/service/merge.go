package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"pilot/backend/ledger"
	"pilot/backend/present"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Merging a branch brings the hunks the user approved into the project
// folder as one change of a project-folder session ("Merge of branch
// pilot/NAME", made for it when there is none), written through the
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

// mergeTitle is the title of the session that holds a branch's merges.
func mergeTitle(branch string) string { return "Merge of branch " + branch }

// mergePlan is one file a merge is about to write.
type mergePlan struct {
	edit ledger.EditFile
	same bool // the folder already holds the result: nothing to write
}

// MergeBranch brings the approved hunks of a worktree session's branch
// into the project folder.
func (w *Service) MergeBranch(ctx context.Context, sessionID int64, m wire.BranchMerge) (wire.MergeResult, error) {
	b, err := w.worktreeSession(ctx, sessionID)
	if err != nil {
		return wire.MergeResult{}, err
	}
	top, err := b.git.Toplevel(ctx, b.proj.Path)
	if err != nil {
		return wire.MergeResult{}, err
	}
	if !sameDir(top, b.proj.Path) {
		return wire.MergeResult{}, fmt.Errorf("the project folder %s is inside the git repository %s, and Pilot merges a branch only into the top folder of a repository: open %s as the project and merge again: %w", b.proj.Path, top, top, ErrInvalid)
	}
	files, err := b.files(ctx)
	if err != nil {
		return wire.MergeResult{}, err
	}
	if m.Version != "" && m.Version != branchVersion(files) {
		return wire.MergeResult{}, fmt.Errorf("branch %s changed since it was read for review, so the decisions may not fit its hunks any more: nothing was merged; read the branch again and decide on what it holds now: %w", b.sess.Worktree.Branch, ErrInvalid)
	}
	byPath := map[string]branchFile{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	type want struct {
		f      branchFile
		result []byte // the text hunks applied (text)
		remove bool   // every text hunk of a deleted file approved
		text   bool   // some text hunk approved
		whole  bool   // the whole-file hunk approved: the worktree's file as it is
		exec   bool   // the executable-bit hunk approved
	}
	var wants []want
	var paths []string
	res := wire.MergeResult{Merged: []string{}, Conflicts: []wire.MergeConflict{}}
	for _, d := range m.Files {
		f, ok := byPath[d.Path]
		if !ok {
			return wire.MergeResult{}, fmt.Errorf("%s is not a file branch %s changed (see its files with GetBranch or the Branch view): %w", d.Path, b.sess.Worktree.Branch, ErrInvalid)
		}
		if len(d.Hunks) != f.count() {
			return wire.MergeResult{}, fmt.Errorf("%s has %d hunks on branch %s, and the decision names %d: read the branch again and decide on each hunk: %w", f.Path, f.count(), b.sess.Worktree.Branch, len(d.Hunks), ErrInvalid)
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
				return wire.MergeResult{}, err
			}
			x.result, x.remove = []byte(text), !f.Exists && all
		}
		wants = append(wants, x)
		paths = append(paths, f.Path)
	}
	heads, err := b.git.BlobsAt(ctx, b.proj.Path, "HEAD", paths)
	if err != nil {
		return wire.MergeResult{}, fmt.Errorf("reading the project's last commit: %w", err)
	}
	root, err := projectroot.New(b.proj.Path)
	if err != nil {
		return wire.MergeResult{}, err
	}
	defer root.Close()
	// One piece of work at a time in the folder: a command of another
	// session running there would otherwise count the merge's writes as
	// its own effects (ledger.Hold).
	release, err := w.ledger.Hold(ctx, root.Dir(), "merging branch "+b.sess.Worktree.Branch, nil)
	if err != nil {
		return wire.MergeResult{}, err
	}
	defer release()
	var plans []mergePlan
	conflict := func(p, why string) { res.Conflicts = append(res.Conflicts, wire.MergeConflict{Path: p, Why: why}) }
	for _, x := range wants {
		p := x.f.Path
		cur, curData, err := ledger.ReadStateIn(root, p)
		if err != nil {
			conflict(p, fmt.Sprintf("%s could not be read in the project folder (%v), so it was not merged.", p, err))
			continue
		}
		head, inHead := heads[p]
		if (cur.Exists() != inHead || !bytes.Equal(curData, head)) && !m.Force {
			conflict(p, fmt.Sprintf("You changed %s in the project folder and have not committed it, so it was not merged and your change is kept. Commit or stash your change and merge again, or merge with force to merge the branch's hunks into it where they still apply.", p))
			continue
		}
		curLink := cur.Mode&fs.ModeSymlink != 0
		plan := mergePlan{edit: ledger.EditFile{Path: p, Before: cur, Old: curData, Mode: 0o644}}
		if cur.Exists() && !curLink {
			plan.edit.Mode = cur.Mode.Perm()
		} else if x.f.Exists && x.f.Mode&fs.ModeSymlink == 0 {
			plan.edit.Mode = x.f.Mode.Perm()
		}
		if x.exec {
			plan.edit.Mode = withExec(plan.edit.Mode, x.f.Mode&0o100 != 0)
		}
		atBase := cur.Exists() == x.f.InBase && bytes.Equal(curData, x.f.Base) && (!cur.Exists() || curLink == (x.f.BaseMode&fs.ModeSymlink != 0))
		switch {
		case x.whole:
			atNow := cur.Exists() == x.f.Exists && bytes.Equal(curData, x.f.Now) && (!cur.Exists() || curLink == (x.f.Mode&fs.ModeSymlink != 0))
			if !atBase && !atNow {
				conflict(p, fmt.Sprintf("%s changed in the project folder since branch %s was made, and %s is merged only whole, over the file as the branch found it, so it was not merged: copy it from the worktree %s by hand.", p, b.sess.Worktree.Branch, wholeKind(x.f), b.sess.Worktree.Path))
				continue
			}
			plan.edit.New, plan.edit.Remove = x.f.Now, !x.f.Exists
			if x.f.Mode&fs.ModeSymlink != 0 {
				plan.edit.Mode = x.f.Mode
			}
		case curLink:
			conflict(p, fmt.Sprintf("%s is a symbolic link in the project folder, and branch %s changes it as a file, so it was not merged: merge it by hand from the worktree %s.", p, b.sess.Worktree.Branch, b.sess.Worktree.Path))
			continue
		case !x.text: // only the executable bit
			if !cur.Exists() {
				conflict(p, fmt.Sprintf("%s was deleted in the project folder since branch %s was made, so its executable bit was not changed.", p, b.sess.Worktree.Branch))
				continue
			}
			plan.edit.New = curData
		case atBase:
			plan.edit.New, plan.edit.Remove = x.result, x.remove
		case !cur.Exists() || !x.f.InBase || x.remove:
			conflict(p, fmt.Sprintf("%s was created or deleted in the project folder since branch %s was made, so the branch's change to it does not apply: merge it by hand from the worktree %s.", p, b.sess.Worktree.Branch, b.sess.Worktree.Path))
			continue
		default:
			merged, clean, err := b.git.MergeFile(ctx, curData, x.f.Base, x.result)
			if err != nil {
				return wire.MergeResult{}, err
			}
			if !clean {
				conflict(p, fmt.Sprintf("%s changed in the project folder since branch %s was made, and the approved hunks no longer apply to it where it changed, so it was not merged: merge it by hand from the worktree %s.", p, b.sess.Worktree.Branch, b.sess.Worktree.Path))
				continue
			}
			plan.edit.New = merged
		}
		if plan.edit.Remove {
			plan.same = !cur.Exists()
		} else {
			plan.same = cur.Exists() && bytes.Equal(plan.edit.New, curData) && cur.Mode == plan.edit.Mode
		}
		plans = append(plans, plan)
	}
	if len(res.Conflicts) > 0 && !m.Force {
		return res, nil
	}
	var edits []ledger.EditFile
	for _, p := range plans {
		res.Merged = append(res.Merged, p.edit.Path)
		if !p.same {
			edits = append(edits, p.edit)
		}
	}
	if len(edits) == 0 {
		return res, nil
	}
	sess, err := w.mergeSession(ctx, b)
	if err != nil {
		return wire.MergeResult{}, err
	}
	res.SessionID = sess
	if err := w.writeMerge(ctx, root, sess, b.sess.Worktree.Branch, edits); err != nil {
		return wire.MergeResult{}, err
	}
	return res, nil
}

// writeMerge writes the files of a merge through the ledger: intent
// first, then each file atomically, then the checkpoint settled. A write
// that fails puts the files already written back, and nothing is merged.
func (w *Service) writeMerge(ctx context.Context, root *projectroot.Root, sessionID int64, branch string, edits []ledger.EditFile) error {
	label := fmt.Sprintf("Merged %d %s from branch %s", len(edits), plural(len(edits), "file", "files"), branch)
	cp, err := w.ledger.BeginEdit(ctx, sessionID, 0, label, edits)
	if err != nil {
		return fmt.Errorf("recording the merge before writing it (nothing was written): %w", err)
	}
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
	if werr != nil {
		for i := len(done) - 1; i >= 0; i-- {
			e := done[i]
			_ = writeEdit(root, e.Path, !e.Before.Exists(), e.Old, e.Before.Mode)
		}
	}
	if _, err := w.ledger.Settle(ctx, cp, root); err != nil {
		w.log.Error("settling a merge's checkpoint", "session", sessionID, "checkpoint", cp.ID, "err", err)
	}
	w.Emit(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: sessionID})
	if werr != nil {
		return fmt.Errorf("%w; the files already written were put back, so nothing was merged", werr)
	}
	return nil
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
func wholeKind(f branchFile) string {
	switch {
	case f.Mode&fs.ModeSymlink != 0 || f.BaseMode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case f.Binary:
		return "a binary file"
	}
	return "an empty file"
}

// mergeSession is the project-folder session that holds the merges of a
// branch: the one titled for it, or a new one.
func (w *Service) mergeSession(ctx context.Context, b branchOf) (int64, error) {
	title := mergeTitle(b.sess.Worktree.Branch)
	ss, err := w.store.Sessions.List(ctx, b.proj.ID, 0, 0)
	if err != nil {
		return 0, err
	}
	for _, s := range ss {
		if s.Title == title && s.Worktree.Path == "" {
			return s.ID, nil
		}
	}
	s, err := w.store.Sessions.Create(ctx, store.NewSession{ProjectID: b.proj.ID, Title: title,
		Provider: b.sess.Provider, Model: b.sess.Model, ApprovalMode: b.sess.ApprovalMode})
	if err != nil {
		return 0, err
	}
	w.Emit(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
	return s.ID, nil
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
