package ledger

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"pilot/backend/store"
	"pilot/backend/wire"
)

// maxDiffText is the largest file a diff shows as text.
const maxDiffText = 2 << 20

// OpOf names what an event did to its file.
func OpOf(e store.FileEvent) string {
	switch {
	case e.Before.Hash == "":
		return string(wire.OpCreated)
	case e.After.Hash == "":
		return string(wire.OpDeleted)
	}
	return string(wire.OpModified)
}

// effectView shows one event; Kept says whether it can be reverted: the
// content from before is kept (or there was no file).
func effectView(e store.FileEvent) wire.FileEffect {
	return wire.FileEffect{Path: e.Path, Op: wire.LedgerOp(OpOf(e)), Kept: e.Before.Kept || e.Before.Hash == "", Why: e.Why, RunsCode: e.RunsCode}
}

// listedView shows a file the ledger listed without keeping it.
func listedView(f store.ListedFile) wire.FileEffect {
	return wire.FileEffect{Path: f.Path, Op: wire.LedgerOp(f.Op), Why: f.Why, RunsCode: f.RunsCode, Listed: true, Folder: f.Folder}
}

// CheckpointView is a checkpoint as the window lists it: its events and
// the files it listed without keeping them, by path.
func CheckpointView(c store.Checkpoint) wire.Checkpoint {
	v := wire.Checkpoint{ID: c.ID, Kind: wire.CheckpointKind(c.Kind), ToolCallID: c.ToolUseID, MessageID: c.MessageID,
		Label: c.Label, Note: c.Note, Omitted: c.Omitted, CreatedAt: c.CreatedAt.UnixMilli(), Files: []wire.FileEffect{}}
	v.Undone = len(c.Files) > 0
	for _, e := range c.Files {
		v.Files = append(v.Files, effectView(e))
		v.Undone = v.Undone && e.UndoneBy != 0
	}
	for _, f := range c.Listed {
		v.Files = append(v.Files, listedView(f))
	}
	if len(c.Listed) > 0 {
		slices.SortStableFunc(v.Files, func(a, b wire.FileEffect) int { return strings.Compare(a.Path, b.Path) })
	}
	return v
}

// View is a session's ledger: every checkpoint, and every file with its
// net effect from before the session to the ledger's last state.
func (l *Ledger) View(ctx context.Context, sessionID int64) (wire.Ledger, error) {
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return wire.Ledger{}, err
	}
	v := wire.Ledger{SessionID: sessionID, Files: []wire.LedgerFile{}, Checkpoints: []wire.Checkpoint{}}
	for _, c := range cps {
		if c.Done {
			v.Checkpoints = append(v.Checkpoints, CheckpointView(c))
		}
	}
	h, listed := history(cps), listings(cps)
	paths := make([]string, 0, len(h)+len(listed))
	for p := range h {
		paths = append(paths, p)
	}
	for p := range listed {
		if _, ok := h[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if len(listed[p]) > 0 {
			v.Files = append(v.Files, listedFile(p, h[p], listed[p]))
			continue
		}
		evs := h[p]
		first, last := evs[0].Before, evs[len(evs)-1].After
		f := wire.LedgerFile{Path: p, Revertable: first.Kept || first.Hash == "", RunsCode: evs[len(evs)-1].RunsCode}
		switch {
		case stateOf(first).Same(stateOf(last)):
		case first.Hash == "":
			f.Kind = wire.OpCreated
		case last.Hash == "":
			f.Kind = wire.OpDeleted
		default:
			f.Kind = wire.OpModified
		}
		for _, e := range evs {
			f.Checkpoints = append(f.Checkpoints, e.CheckpointID)
		}
		v.Files = append(v.Files, f)
	}
	return v, nil
}

// listing is a file a checkpoint listed without keeping it.
type listing struct {
	checkpoint int64
	store.ListedFile
}

// listings is each path's listings in a session's done checkpoints,
// oldest first.
func listings(cps []store.Checkpoint) map[string][]listing {
	out := map[string][]listing{}
	for _, c := range cps {
		if !c.Done {
			continue
		}
		for _, f := range c.Listed {
			out[f.Path] = append(out[f.Path], listing{c.ID, f})
		}
	}
	return out
}

// listedFile is the net effect of a session on a file some step listed
// without keeping it (and others may have recorded): from whether it was
// there before the first step and after the last, since the listed steps
// know no content; never revertable.
func listedFile(p string, evs []store.FileEvent, ls []listing) wire.LedgerFile {
	type step struct {
		checkpoint    int64
		before, after bool
		runsCode      string
	}
	var steps []step
	for _, e := range evs {
		steps = append(steps, step{e.CheckpointID, e.Before.Hash != "", e.After.Hash != "", e.RunsCode})
	}
	for _, l := range ls {
		steps = append(steps, step{l.checkpoint, l.Op != string(wire.OpCreated), l.Op != string(wire.OpDeleted), l.RunsCode})
	}
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.checkpoint, b.checkpoint) })
	first, last := steps[0], steps[len(steps)-1]
	f := wire.LedgerFile{Path: p, Listed: true, RunsCode: last.runsCode}
	switch {
	case !first.before && last.after:
		f.Kind = wire.OpCreated
	case first.before && !last.after:
		f.Kind = wire.OpDeleted
	case first.before && last.after:
		f.Kind = wire.OpModified
	}
	for _, s := range steps {
		if !slices.Contains(f.Checkpoints, s.checkpoint) {
			f.Checkpoints = append(f.Checkpoints, s.checkpoint)
		}
	}
	return f
}

// listedDiff is the diff of a file a step listed without keeping it: none,
// and why.
func listedDiff(rel string, l store.ListedFile) wire.FileDiff {
	return wire.FileDiff{Path: rel, OldExists: l.Op != string(wire.OpCreated), NewExists: l.Op != string(wire.OpDeleted),
		Missing: "the ledger lists this file without keeping its content (" + l.Why + "): no diff to show, and it cannot be reverted", Hunks: []wire.Hunk{}}
}

// FileDiff is the cumulative diff of a file over a session: from before
// the session first changed it to what is on disk now.
func (l *Ledger) FileDiff(ctx context.Context, sessionID int64, rel string) (wire.FileDiff, error) {
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return wire.FileDiff{}, err
	}
	if ls := listings(cps)[rel]; len(ls) > 0 {
		return listedDiff(rel, ls[len(ls)-1].ListedFile), nil
	}
	evs := history(cps)[rel]
	if len(evs) == 0 {
		return wire.FileDiff{}, fmt.Errorf("%s: this session did not change it: %w", rel, ErrNothing)
	}
	root, err := l.rootOf(ctx, sessionID)
	if err != nil {
		return wire.FileDiff{}, err
	}
	defer root.Close()
	now, data, err := ReadStateIn(root, rel)
	if err != nil {
		return wire.FileDiff{}, err
	}
	now.Kept = true
	return l.diffOf(rel, evs[0].Before, now, data), nil
}

// CheckpointDiff is what one checkpoint did to one file.
func (l *Ledger) CheckpointDiff(ctx context.Context, id int64, rel string) (wire.FileDiff, error) {
	cp, err := l.st.Checkpoints.Get(ctx, id)
	if err != nil {
		return wire.FileDiff{}, err
	}
	for _, e := range cp.Files {
		if e.Path == rel {
			return l.diffOf(rel, e.Before, stateOf(e.After), nil), nil
		}
	}
	for _, f := range cp.Listed {
		if f.Path == rel {
			return listedDiff(rel, f), nil
		}
	}
	return wire.FileDiff{}, fmt.Errorf("%s is not in checkpoint %d: %w", rel, id, ErrNothing)
}

// diffOf builds the diff of two states; newData, when not nil, is the new
// side's content (read from disk).
func (l *Ledger) diffOf(rel string, old store.FileSide, nw FileState, newData []byte) wire.FileDiff {
	oldData, why := l.content(stateOf(old))
	if newData == nil {
		var w string
		newData, w = l.content(nw)
		why = firstOf(why, w)
	}
	if why != "" {
		return wire.FileDiff{Path: rel, OldExists: old.Hash != "", NewExists: nw.Exists(), Missing: why, Hunks: []wire.Hunk{}}
	}
	return textDiff(rel, stateOf(old), oldData, nw, newData)
}

// content returns a state's content, or why it is not available.
func (l *Ledger) content(s FileState) ([]byte, string) {
	if !s.Exists() {
		return nil, ""
	}
	if !s.Kept {
		return nil, "content not kept (over the size limit, or removed by the retention setting)"
	}
	b, err := l.blobs.Get(s.Hash)
	if err != nil {
		return nil, "content missing from the checkpoint store: " + err.Error()
	}
	return b, ""
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
