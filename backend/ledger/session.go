package ledger

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"pilot/backend/diff"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// RevertCheckpointFor reverts one checkpoint and tells the session's model
// on its next turn.
func (l *Ledger) RevertCheckpointFor(ctx context.Context, id int64, in wire.RestoreInput) (wire.RestoreResult, error) {
	cp, err := l.st.Checkpoints.Get(ctx, id)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	r, err := l.RevertCheckpoint(ctx, id, in.Resolutions)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	what := strings.TrimPrefix(cp.Label, "→ ")
	return l.finish(ctx, cp.SessionID, cp.SessionID, r, "Reverted "+what, "Nothing was reverted", "the user reverted your earlier step ("+what+")")
}

// RevertFileFor puts one file back to before the session changed it.
func (l *Ledger) RevertFileFor(ctx context.Context, sessionID int64, rel string, in wire.RestoreInput) (wire.RestoreResult, error) {
	r, err := l.RevertFile(ctx, sessionID, rel, in.Resolutions)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	return l.finish(ctx, sessionID, sessionID, r, "Reverted "+rel, "Nothing was reverted", "the user reverted "+rel+" to how it was before this session")
}

// RewindSession restores the project's files (mode code), the
// conversation (conversation: a fork that ends just before the message),
// or both, to just before the user message messageID. Files are restored
// first: when they conflict, nothing is done and the conflicts come back.
func (l *Ledger) RewindSession(ctx context.Context, sessionID, messageID int64, mode wire.RewindMode, in wire.RestoreInput) (wire.RestoreResult, error) {
	if mode != wire.RewindCode && mode != wire.RewindBoth && mode != wire.RewindConversation {
		return wire.RestoreResult{}, fmt.Errorf("rewind mode %q: use code, conversation or both: %w", mode, store.ErrInvalid)
	}
	prev, err := l.st.Messages.LastBefore(ctx, sessionID, messageID)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	snippet, err := l.st.Messages.Snippet(ctx, messageID)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	where := fmt.Sprintf("before “%s”", snippet)
	var r Result
	if mode != wire.RewindConversation {
		r, err = l.Rewind(ctx, sessionID, messageID, "Rewound files to "+where, in.Resolutions)
		if err != nil {
			return wire.RestoreResult{}, err
		}
		if len(r.Conflicts) > 0 {
			return l.result(sessionID, r), nil
		}
	}
	target := sessionID
	if mode != wire.RewindCode {
		fork, err := l.forkBefore(ctx, sessionID, prev)
		if err != nil {
			return wire.RestoreResult{}, err
		}
		target = fork.ID
	}
	if mode == wire.RewindConversation {
		return l.conversationOnly(ctx, sessionID, messageID, target, where)
	}
	text, nothing := "Rewound files to "+where, "Nothing was rewound"
	if mode == wire.RewindBoth {
		text = "Rewound files and conversation to " + where + "; the earlier conversation is kept as it was"
		nothing = "Rewound the conversation to " + where + " (the earlier conversation is kept as it was); the files were not"
	}
	return l.finish(ctx, sessionID, target, r, text, nothing, "the user rewound the project's files to how they were "+where)
}

// forkBefore is a new session holding the conversation up to message prev
// (a new empty session when prev is 0).
func (l *Ledger) forkBefore(ctx context.Context, sessionID, prev int64) (store.Session, error) {
	if prev != 0 {
		return l.st.Sessions.Fork(ctx, sessionID, prev)
	}
	s, err := l.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return store.Session{}, err
	}
	return l.st.Sessions.Create(ctx, store.NewSession{ProjectID: s.ProjectID, Title: s.Title + " (rewound)",
		Provider: s.Provider, Model: s.Model, ApprovalMode: s.ApprovalMode, BudgetUSD: s.BudgetUSD})
}

// conversationOnly tells the fork's model that the files still hold what
// the rest of the old conversation changed.
func (l *Ledger) conversationOnly(ctx context.Context, sessionID, messageID, fork int64, where string) (wire.RestoreResult, error) {
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return wire.RestoreResult{}, err
	}
	seen := map[string]bool{}
	var files []string
	for _, c := range cps {
		if !c.Done || c.MessageID < messageID {
			continue
		}
		for _, e := range c.Files {
			if !seen[e.Path] {
				seen[e.Path] = true
				files = append(files, e.Path)
			}
		}
	}
	if len(files) > 0 {
		note := "[Pilot] The conversation was rewound, but the project's files were not: " + strings.Join(files, ", ") +
			" still hold changes made later in the earlier conversation. Read them before relying on what they contain."
		if err := l.st.Sessions.AddPendingNote(ctx, fork, note); err != nil {
			return wire.RestoreResult{}, err
		}
	}
	return wire.RestoreResult{Done: true, Conflicts: []wire.Conflict{}, Restored: []wire.FileEffect{}, Kept: []string{}, Missing: []wire.FileEffect{},
		SessionID: fork, Message: "Rewound the conversation to " + where + "; the files were left as they are."}, nil
}

// finish turns a restore into its result, and notes for the model of
// noteSession what was restored. done opens the message of a restore that
// wrote files; nothing opens it when the user kept their own version of
// every file it would have written (then no file changed).
func (l *Ledger) finish(ctx context.Context, sessionID, noteSession int64, r Result, done, nothing, told string) (wire.RestoreResult, error) {
	res := l.result(sessionID, r)
	res.SessionID = noteSession
	if len(r.Conflicts) > 0 {
		return res, nil
	}
	var parts []string
	for _, e := range r.Restored {
		parts = append(parts, e.Path+" ("+restoredHow(e)+")")
	}
	switch {
	case len(r.Restored) == 0 && len(r.Missing) == 0 && len(r.Kept) == 0 && len(r.NotKept) > 0:
		res.Message = nothing + "."
	case len(r.Restored) == 0 && len(r.Missing) == 0 && len(r.Kept) == 0:
		res.Message = "Nothing to restore: the files are already as they were."
	case len(r.Restored) == 0 && len(r.Missing) == 0:
		res.Message = fmt.Sprintf("%s: you kept your own version of %s, so no file changed.", nothing, namedFiles(r.Kept))
	default:
		res.Message = fmt.Sprintf("%s: %d %s restored", done, len(r.Restored), plural(len(r.Restored), "file", "files"))
		if len(r.Kept) > 0 {
			res.Message += fmt.Sprintf(", %d kept as you have %s", len(r.Kept), plural(len(r.Kept), "it", "them"))
		}
		if len(r.Missing) > 0 {
			res.Message += fmt.Sprintf("; %d could not be restored (%s)", len(r.Missing), r.Missing[0].Why)
		}
		res.Message += "."
	}
	res.Message += notKeptSentence(r.NotKept)
	if len(parts) > 0 {
		note := "[Pilot] Since your last turn " + told + ": " + strings.Join(parts, ", ") + ". Read these files again before changing them."
		if err := l.st.Sessions.AddPendingNote(ctx, noteSession, note); err != nil {
			return wire.RestoreResult{}, err
		}
	}
	return res, nil
}

// notKeptSentence says which files the steps undone changed that the
// ledger did not keep, and so are left as they are, those that can run
// code named first: " 2 files the undone steps changed were not kept and
// are left as they are: sub/.git/hooks/pre-commit (can run code: a git
// hook), x.log." "" when there are none.
func notKeptSentence(files []store.ListedFile) string {
	if len(files) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var runs, other []string
	for _, f := range files {
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		if f.RunsCode != "" {
			runs = append(runs, f.Path+" (can run code: "+f.RunsCode+")")
		} else {
			other = append(other, f.Path)
		}
	}
	n := len(runs) + len(other)
	return fmt.Sprintf(" %d %s the undone steps changed %s not kept and %s left as %s: %s.", n, plural(n, "file", "files"),
		plural(n, "was", "were"), plural(n, "is", "are"), plural(n, "it is", "they are"), firstNames(append(runs, other...)))
}

// namedFiles is "a.txt", "2 files (a.txt, b.txt)", or "5 files (a.txt, b.txt, c.txt and 2 more)".
func namedFiles(paths []string) string {
	if len(paths) == 1 {
		return paths[0]
	}
	return fmt.Sprintf("%d files (%s)", len(paths), firstNames(paths))
}

// firstNames is "a.txt, b.txt, c.txt", or "a.txt, b.txt, c.txt and 2 more".
func firstNames(paths []string) string {
	shown := paths[:min(len(paths), 3)]
	list := strings.Join(shown, ", ")
	if more := len(paths) - len(shown); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return list
}

func restoredHow(e store.FileEvent) string {
	switch {
	case e.After.Hash == "":
		return "removed"
	case e.Before.Hash == "":
		return "recreated"
	}
	return "restored"
}

// result converts a restore's outcome into the window's view.
func (l *Ledger) result(sessionID int64, r Result) wire.RestoreResult {
	res := wire.RestoreResult{Done: len(r.Conflicts) == 0, Conflicts: []wire.Conflict{}, Restored: []wire.FileEffect{},
		Kept: orStrings(r.Kept), Missing: []wire.FileEffect{}, CheckpointID: r.Checkpoint.ID, SessionID: sessionID}
	for _, c := range r.Conflicts {
		res.Conflicts = append(res.Conflicts, conflictView(c))
	}
	for _, e := range r.Restored {
		res.Restored = append(res.Restored, effectView(e))
	}
	for _, e := range r.Missing {
		res.Missing = append(res.Missing, wire.FileEffect{Path: e.Path, Why: e.Why})
	}
	for _, f := range r.NotKept {
		res.NotKept = append(res.NotKept, listedView(f))
	}
	if len(r.Conflicts) > 0 {
		res.Message = fmt.Sprintf("%d %s changed outside Pilot since Pilot last wrote %s: choose for each whether to keep your version or go back to the earlier one. Nothing was restored yet.",
			len(r.Conflicts), plural(len(r.Conflicts), "file", "files"), plural(len(r.Conflicts), "it", "them"))
	}
	return res
}

func orStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// conflictView shows both versions of a conflicting file: mine (what Pilot
// last wrote → the disk now) and the checkpoint's (the disk now → what the
// restore would write).
func conflictView(c Conflict) wire.Conflict {
	return wire.Conflict{
		Path:       c.Path,
		Mine:       textDiff(c.Path, c.Expect, c.ExpectData, c.Disk, c.DiskData),
		Checkpoint: textDiff(c.Path, c.Disk, c.DiskData, c.Want, c.Wants),
	}
}

func textDiff(rel string, a FileState, ad []byte, b FileState, bd []byte) wire.FileDiff {
	d := wire.FileDiff{Path: rel, OldExists: a.Exists(), NewExists: b.Exists(), Hunks: []wire.Hunk{}}
	switch {
	case isBinary(ad) || isBinary(bd):
		d.Binary = true
	case (a.Exists() && ad == nil) || (b.Exists() && bd == nil):
		d.Missing = "content not kept"
	case len(ad) > maxDiffText || len(bd) > maxDiffText:
		d.Missing = "too large to show as a diff (over " + FormatSize(maxDiffText) + ")"
	default:
		d.OldText, d.NewText = string(ad), string(bd)
		if a.Mode&fs.ModeSymlink != 0 {
			d.OldText = "→ " + d.OldText
		}
		if b.Mode&fs.ModeSymlink != 0 {
			d.NewText = "→ " + d.NewText
		}
		d.Hunks = diff.Compute(d.OldText, d.NewText).Hunks()
	}
	return d
}

func isBinary(b []byte) bool {
	for _, c := range b[:min(len(b), 8000)] {
		if c == 0 {
			return true
		}
	}
	return false
}
