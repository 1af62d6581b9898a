package ledger

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/sandbox"
	"pilot/backend/store"
)

// Command is the checkpoint of a command being run: Before was taken.
type Command struct {
	l    *Ledger
	snap *Snapshot
}

// BeforeCommand scans the project before an approved command runs, so
// that its effects can be found and undone afterwards.
func (l *Ledger) BeforeCommand(ctx context.Context, root *sandbox.Root) (*Command, error) {
	snap, err := l.trees.Before(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint before the command: %w", err)
	}
	return &Command{l: l, snap: snap}, nil
}

// Finish scans again and records what the command created, modified and
// deleted. It records nothing (and returns a zero Checkpoint) when the
// command changed no file.
func (c *Command) Finish(ctx context.Context, sessionID, toolCallID int64, label string) (store.Checkpoint, error) {
	effects, omitted, err := c.snap.After(ctx)
	if err != nil {
		return store.Checkpoint{}, fmt.Errorf("checkpoint after the command: %w", err)
	}
	if len(effects) == 0 && omitted == 0 {
		return store.Checkpoint{}, nil
	}
	lim := c.l.trees.Limits()
	cp := store.Checkpoint{SessionID: sessionID, ToolCallID: toolCallID, Kind: store.CheckpointCommand, Label: label, Omitted: omitted}
	big, stuck := 0, 0
	over := "over " + FormatSize(lim.MaxFileBytes)
	for _, e := range effects {
		ev := store.FileEvent{Path: e.Path, Before: side(e.Before), After: side(e.After), MadeDirs: e.MadeDirs}
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
	var notes []string
	if omitted > 0 {
		notes = append(notes, fmt.Sprintf("The command changed %d files; only the first %d are recorded and can be reverted.", len(effects)+omitted, len(effects)))
	}
	if big > 0 {
		n := fmt.Sprintf("%d %s %s: listed, but the content is not kept", big, plural(big, "file is", "files are"), over)
		if stuck > 0 {
			n += fmt.Sprintf("; %d of them cannot be reverted", stuck)
		}
		notes = append(notes, n+".")
	}
	cp.Note = strings.Join(notes, " ")
	cp, err = c.l.st.BeginCheckpoint(ctx, cp)
	if err != nil {
		return store.Checkpoint{}, err
	}
	if _, err := c.l.st.FinishCheckpoint(ctx, cp.ID, nil); err != nil {
		return store.Checkpoint{}, err
	}
	cp.Done = true
	return cp, nil
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
