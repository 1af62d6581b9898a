package ledger

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// A pending edit checkpoint is the intent of an approved change: before
// the first file is replaced it holds, per file, the path, whether the
// file existed (before hash ""), the content before and the content to
// write (blobs) and the mode. A crash between two files' renames leaves
// some files new and others old; the next start (Repair) finishes the
// change one way, by this rule:
//
//   - every file holds its content before or its approved content: the
//     user approved the change, so the files still old are written
//     ("completed on restart"); when none was written yet, nothing is
//     written either ("not applied");
//   - some file holds neither (something else changed it meanwhile): the
//     files that hold the approved content get their content before back
//     ("undone on restart"), and the file changed by someone else is left
//     as it is and named in the result.
//
// A write that fails while completing turns the recovery into an undo.

// Recovery is what the next start made of a change a crash interrupted.
type Recovery struct {
	CheckpointID int64
	ToolCallID   int64
	Outcome      string   // RecoveryCompleted, RecoveryUndone or RecoveryNotApplied
	Files        []string // the change's files
	Others       []string // changed by something else meanwhile: left as they are
	Failed       []string // could not be put back (with why)
}

// Outcomes of a Recovery.
const (
	RecoveryCompleted  = "completed"
	RecoveryUndone     = "undone"
	RecoveryNotApplied = "not applied"
)

// Text is the tool result the model and the card get for the change.
func (r Recovery) Text() string {
	files := strings.Join(r.Files, ", ")
	switch r.Outcome {
	case RecoveryCompleted:
		return fmt.Sprintf("%scompleted on restart. Pilot was stopped while it wrote this approved change; on the next start it finished writing it, so every file of it (%s) now holds the approved content.", store.CrashPrefix, files)
	case RecoveryNotApplied:
		return fmt.Sprintf("%snot applied. Pilot was stopped before it wrote any file of this change, so nothing was changed (%s hold their content from before). Propose the change again if it is still wanted.", store.CrashPrefix, files)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%sundone on restart. Pilot was stopped while it wrote this approved change", store.CrashPrefix)
	if len(r.Others) > 0 {
		fmt.Fprintf(&b, ", and something else changed %s meanwhile, so the next start undid the change: the other files hold their content from before again, and %s was left as it is (read it before changing it).", strings.Join(r.Others, ", "), strings.Join(r.Others, ", "))
	} else {
		b.WriteString(", and the next start could not finish writing it, so it undid the change: every file holds its content from before again.")
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(&b, " These could not be put back: %s.", strings.Join(r.Failed, "; "))
	}
	b.WriteString(" Read the files and propose the change again if it is still wanted.")
	return b.String()
}

// fileNow is one file of an interrupted change as found on restart.
type fileNow struct {
	e   store.FileEvent
	rel string // where it lands, relative to the project (Ledger.place)
	cur FileState
	err error
}

func (f fileNow) isOld() bool { return f.err == nil && f.cur.Same(stateOf(f.e.Before)) }
func (f fileNow) isNew() bool { return f.err == nil && f.cur.Same(stateOf(f.e.After)) }

// recoverEdit completes or undoes an edit checkpoint a crash left
// pending, settles it, and rewrites its tool call's result.
func (l *Ledger) recoverEdit(ctx context.Context, cp store.Checkpoint, root *projectroot.Root) (Recovery, error) {
	release, err := l.Hold(ctx, root.Dir(), fmt.Sprintf("the repair of a change of session %d a crash interrupted", cp.SessionID), nil)
	if err != nil {
		return Recovery{}, err
	}
	defer release()
	r := Recovery{CheckpointID: cp.ID, ToolCallID: cp.ToolCallID}
	files := make([]fileNow, len(cp.Files))
	anyNew := false
	for i, e := range cp.Files {
		f := fileNow{e: e}
		f.rel, f.err = l.place(root, e.Path)
		if f.err == nil {
			root.RemoveTemps(f.rel)
			f.cur, _, f.err = ReadStateIn(root, f.rel)
		}
		if !f.isOld() && !f.isNew() {
			r.Others = append(r.Others, e.Path)
		}
		anyNew = anyNew || f.isNew()
		r.Files = append(r.Files, e.Path)
		files[i] = f
	}
	switch {
	case len(r.Others) == 0 && !anyNew:
		r.Outcome = RecoveryNotApplied
	case len(r.Others) == 0:
		r.Outcome = RecoveryCompleted
		for _, f := range files {
			if f.isNew() {
				continue
			}
			if err := l.putSide(root, f.rel, f.e.After, nil); err != nil {
				l.log.Warn("completing a change a crash interrupted; undoing it", "path", f.e.Path, "err", err)
				r.Outcome = RecoveryUndone
				break
			}
		}
	default:
		r.Outcome = RecoveryUndone
	}
	if r.Outcome == RecoveryUndone {
		for _, f := range files {
			if !f.isNew() && !(f.err == nil && l.holds(root, f.rel, f.e.After)) {
				continue
			}
			if err := l.putSide(root, f.rel, f.e.Before, f.e.MadeDirs); err != nil {
				r.Failed = append(r.Failed, f.e.Path+" ("+err.Error()+")")
			}
		}
	}
	if _, err := l.Settle(ctx, cp, root); err != nil {
		return r, err
	}
	status := wire.ToolError
	if r.Outcome == RecoveryCompleted {
		status = wire.ToolDone
	}
	if cp.ToolCallID != 0 {
		if _, err := l.st.ToolCalls.SetRecoveredResult(ctx, cp.ToolCallID, status, r.Text()); err != nil {
			return r, err
		}
		if r.Outcome == RecoveryCompleted {
			after := map[string]string{}
			for _, e := range cp.Files {
				after[e.Path] = e.After.Hash
			}
			if err := l.st.ToolCalls.SetChangesApplied(ctx, cp.ToolCallID, after); err != nil {
				return r, err
			}
		}
	}
	return r, nil
}

// holds reports whether rel holds want now (after a completion wrote it).
func (l *Ledger) holds(root *projectroot.Root, rel string, want store.FileSide) bool {
	cur, _, err := ReadStateIn(root, rel)
	return err == nil && cur.Same(stateOf(want))
}

// putSide makes rel hold a side of a file event, its content read from
// the blobs, written through the root.
func (l *Ledger) putSide(root *projectroot.Root, rel string, want store.FileSide, madeDirs []string) error {
	var data []byte
	if want.Hash != "" {
		if !want.Kept {
			return errors.New("its content was not kept")
		}
		var err error
		if data, err = l.blobs.Get(want.Hash); err != nil {
			return err
		}
	}
	return put(root, rel, want, data, madeDirs)
}
