package ledger

import (
	"context"
	"fmt"
	"sort"

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
	return wire.FileEffect{Path: e.Path, Op: wire.LedgerOp(OpOf(e)), Kept: e.Before.Kept || e.Before.Hash == "", Why: e.Why}
}

// CheckpointView is a checkpoint as the window lists it.
func CheckpointView(c store.Checkpoint) wire.Checkpoint {
	v := wire.Checkpoint{ID: c.ID, Kind: wire.CheckpointKind(c.Kind), ToolCallID: c.ToolUseID, MessageID: c.MessageID,
		Label: c.Label, Note: c.Note, Omitted: c.Omitted, CreatedAt: c.CreatedAt.UnixMilli(), Files: []wire.FileEffect{}}
	v.Undone = len(c.Files) > 0
	for _, e := range c.Files {
		v.Files = append(v.Files, effectView(e))
		v.Undone = v.Undone && e.UndoneBy != 0
	}
	return v
}

// View is a session's ledger: every checkpoint, and every file with its
// net effect from before the session to the ledger's last state.
func (l *Ledger) View(ctx context.Context, sessionID int64) (wire.Ledger, error) {
	cps, err := l.st.Checkpoints(ctx, sessionID)
	if err != nil {
		return wire.Ledger{}, err
	}
	v := wire.Ledger{SessionID: sessionID, Files: []wire.LedgerFile{}, Checkpoints: []wire.Checkpoint{}}
	for _, c := range cps {
		if c.Done {
			v.Checkpoints = append(v.Checkpoints, CheckpointView(c))
		}
	}
	h := history(cps)
	paths := make([]string, 0, len(h))
	for p := range h {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		evs := h[p]
		first, last := evs[0].Before, evs[len(evs)-1].After
		f := wire.LedgerFile{Path: p, Revertable: first.Kept || first.Hash == ""}
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

// FileDiff is the cumulative diff of a file over a session: from before
// the session first changed it to what is on disk now.
func (l *Ledger) FileDiff(ctx context.Context, sessionID int64, rel string) (wire.FileDiff, error) {
	cps, err := l.st.Checkpoints(ctx, sessionID)
	if err != nil {
		return wire.FileDiff{}, err
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
	cp, err := l.st.Checkpoint(ctx, id)
	if err != nil {
		return wire.FileDiff{}, err
	}
	for _, e := range cp.Files {
		if e.Path == rel {
			return l.diffOf(rel, e.Before, stateOf(e.After), nil), nil
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
