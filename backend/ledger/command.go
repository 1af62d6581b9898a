package ledger

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"pilot/backend/projectroot"
	"pilot/backend/store"
)

// Command is the checkpoint of a command being run: Before was taken.
type Command struct {
	l    *Ledger
	snap *Snapshot
}

// BeforeCommand scans the project before an approved command runs, so
// that its effects can be found and undone afterwards.
func (l *Ledger) BeforeCommand(ctx context.Context, root *projectroot.Root) (*Command, error) {
	snap, err := l.trees.Before(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint before the command: %w", err)
	}
	return &Command{l: l, snap: snap}, nil
}

// Finish scans again and records what the command created, modified and
// deleted: the project's files (at most Limits.MaxFiles, content kept,
// revertable) as file events, and the files it changed that the ledger
// does not keep (in .git folders, ignored, over MaxFiles) as listed ones
// (at most Limits.MaxListed, those that can run code first; the rest
// counted as omitted), each marked by RunsCode. It records nothing (and
// returns a zero Checkpoint) when the command changed no file.
func (c *Command) Finish(ctx context.Context, sessionID, toolCallID int64, label string) (store.Checkpoint, error) {
	effects, err := c.snap.After(ctx)
	if err != nil {
		return store.Checkpoint{}, fmt.Errorf("checkpoint after the command: %w", err)
	}
	if len(effects) == 0 {
		return store.Checkpoint{}, nil
	}
	lim := c.l.trees.Limits()
	cp := store.Checkpoint{SessionID: sessionID, ToolCallID: toolCallID, Kind: store.CheckpointCommand, Label: label}
	big, stuck, overCount := 0, 0, 0
	over := "over " + FormatSize(lim.MaxFileBytes)
	overWhy := fmt.Sprintf("over the %d files kept per command: not kept", lim.MaxFiles)
	var listed []store.ListedFile
	for _, e := range effects {
		runs := RunsCode(e.Path, e.Op, e.Before.Mode, e.After.Mode, e.Folder)
		if e.Skipped != projectroot.NotSkipped || len(cp.Files) == lim.MaxFiles {
			why := overWhy
			if e.Skipped != projectroot.NotSkipped {
				why = notKept(e)
			} else {
				overCount++
			}
			listed = append(listed, store.ListedFile{Path: e.Path, Op: string(e.Op), Why: why, RunsCode: runs, Folder: e.Folder})
			continue
		}
		ev := store.FileEvent{Path: e.Path, Before: side(e.Before), After: side(e.After), MadeDirs: e.MadeDirs, RunsCode: runs}
		switch {
		case !ev.Before.Kept:
			ev.Why = over + ": its content from before the command was not kept, so it cannot be reverted"
			big++
			stuck++
		case !ev.After.Kept:
			ev.Why = over + ": the command's version is not kept, so its diff cannot be shown"
			big++
		}
		cp.Files = append(cp.Files, ev)
	}
	cp.Listed, cp.Omitted = firstListed(listed, lim.MaxListed)
	var notes []string
	if overCount > 0 {
		notes = append(notes, fmt.Sprintf("The command changed %d of the project's files; only the first %d are recorded and can be reverted, the others are listed without being kept.", len(cp.Files)+overCount, len(cp.Files)))
	}
	if big > 0 {
		n := fmt.Sprintf("%d %s %s: listed, but the content is not kept", big, plural(big, "file is", "files are"), over)
		if stuck > 0 {
			n += fmt.Sprintf("; %d of them cannot be reverted", stuck)
		}
		notes = append(notes, n+".")
	}
	skipped := 0
	for _, l := range cp.Listed {
		if l.Why != overWhy {
			skipped++
		}
	}
	if skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d %s in .git folders or ignored: listed, not kept, %s cannot be undone.", skipped, plural(skipped, "file is", "files are"), plural(skipped, "it", "they")))
	}
	if cp.Omitted > 0 {
		line := fmt.Sprintf("%d more %s not listed (over the %d listed per command)", cp.Omitted, plural(cp.Omitted, "file changed is", "files changed are"), lim.MaxListed)
		if runs := countRuns(listed[len(cp.Listed):]); runs > 0 {
			line += fmt.Sprintf("; %d of them can run code", runs)
		}
		notes = append(notes, line+".")
	}
	cp.Note = strings.Join(notes, " ")
	cp, err = c.l.st.Checkpoints.Begin(ctx, cp)
	if err != nil {
		return store.Checkpoint{}, err
	}
	if _, err := c.l.st.Checkpoints.Finish(ctx, cp.ID, nil); err != nil {
		return store.Checkpoint{}, err
	}
	cp.Done = true
	return cp, nil
}

// notKept is why the ledger lists e, a file in a .git folder or an
// ignored one, without keeping it.
func notKept(e Effect) string {
	switch {
	case e.Folder:
		return "a git folder: not kept"
	case e.Skipped == projectroot.InGit:
		return "in a git folder: not kept"
	}
	return "ignored: not kept"
}

// firstListed keeps at most max of the listed files (by path), those that
// can run code first, and counts the others. listed is sorted by path and
// is reordered.
func firstListed(listed []store.ListedFile, max int) ([]store.ListedFile, int) {
	slices.SortStableFunc(listed, func(a, b store.ListedFile) int {
		return cmp.Compare(runsRank(a), runsRank(b))
	})
	omitted := 0
	if len(listed) > max {
		omitted = len(listed) - max
	}
	kept := slices.Clone(listed[:len(listed)-omitted])
	slices.SortFunc(kept, func(a, b store.ListedFile) int { return strings.Compare(a.Path, b.Path) })
	return kept, omitted
}

func runsRank(f store.ListedFile) int {
	if f.RunsCode != "" {
		return 0
	}
	return 1
}

func countRuns(files []store.ListedFile) int {
	n := 0
	for _, f := range files {
		if f.RunsCode != "" {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FormatSize writes a byte count for people: 512 B, 4 MiB, 1.5 GiB.
func FormatSize(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return trimZero(float64(n)/k) + " KiB"
	case n < k*k*k:
		return trimZero(float64(n)/(k*k)) + " MiB"
	}
	return trimZero(float64(n)/(k*k*k)) + " GiB"
}

func trimZero(f float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0")
}
