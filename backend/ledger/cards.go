package ledger

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"pilot/backend/store"
	"pilot/backend/wire"
)

// Cards are the ledger's part of a session's tool call cards, by the
// model's tool_use id.
type Cards struct {
	Changes map[string]*wire.ChangeSummary
	Effects map[string]*wire.CommandEffects
}

// Fill sets the ledger's part on a card.
func (c Cards) Fill(v *wire.ToolCall) {
	v.Change, v.Effects = c.Changes[v.ID], c.Effects[v.ID]
}

// Cards reads what became of each file change and command of a session.
func (l *Ledger) Cards(ctx context.Context, sessionID int64) (Cards, error) {
	useID, err := l.st.ToolCalls.ToolUseIDs(ctx, sessionID)
	if err != nil {
		return Cards{}, err
	}
	changes, err := l.st.Changes.List(ctx, sessionID)
	if err != nil {
		return Cards{}, err
	}
	cps, err := l.st.Checkpoints.List(ctx, sessionID)
	if err != nil {
		return Cards{}, err
	}
	crashes, err := l.st.ToolCalls.CrashRecoveries(ctx, sessionID)
	if err != nil {
		return Cards{}, err
	}
	out := Cards{Changes: map[string]*wire.ChangeSummary{}, Effects: map[string]*wire.CommandEffects{}}
	for _, files := range latestAttempt(changes) {
		id := useID[files[0].ToolCallID]
		s := &wire.ChangeSummary{Files: []wire.AppliedFile{}, Recovery: crashes[id]}
		for _, c := range files {
			f := appliedFile(c)
			s.Files = append(s.Files, f)
			s.Applied += f.Applied
			s.Total += f.Total
			s.Edited = s.Edited || f.Edited
		}
		if decided(files) {
			out.Changes[id] = s
		}
	}
	for _, cp := range cps {
		if !cp.Done || cp.ToolUseID == "" {
			continue
		}
		v := CheckpointView(cp)
		switch cp.Kind {
		case store.CheckpointEdit:
			if s := out.Changes[cp.ToolUseID]; s != nil {
				s.CheckpointID, s.Undone = cp.ID, v.Undone
			}
		case store.CheckpointCommand:
			out.Effects[cp.ToolUseID] = &wire.CommandEffects{CheckpointID: cp.ID, Files: v.Files, Omitted: cp.Omitted, Note: cp.Note, Undone: v.Undone}
		}
	}
	return out, nil
}

// latestAttempt groups a session's change rows by tool call, keeping for
// each path only the last proposal (a change shown again because its file
// changed on disk is a new proposal of the same call).
func latestAttempt(changes []store.Change) [][]store.Change {
	var order []int64
	byCall := map[int64][]store.Change{}
	for _, c := range changes {
		list, seen := byCall[c.ToolCallID]
		if !seen {
			order = append(order, c.ToolCallID)
		}
		replaced := false
		for i := range list {
			if list[i].Path == c.Path {
				list[i], replaced = c, true
			}
		}
		if !replaced {
			list = append(list, c)
		}
		byCall[c.ToolCallID] = list
	}
	out := make([][]store.Change, 0, len(order))
	for _, id := range order {
		out = append(out, byCall[id])
	}
	return out
}

// decided reports whether the user (or the policy) decided the change.
func decided(cs []store.Change) bool {
	for _, c := range cs {
		for _, h := range c.Hunks {
			if h.Decision != store.HunkPending {
				return true
			}
		}
	}
	return false
}

func appliedFile(c store.Change) wire.AppliedFile {
	f := wire.AppliedFile{Path: c.Path, Op: wire.OpModified, Total: len(c.Hunks), Edited: c.UserEdited != nil, Written: c.Applied,
		Decisions: make([]wire.HunkDecision, len(c.Hunks))}
	if c.OldHash == "" {
		f.Op = wire.OpCreated
	}
	for i, h := range c.Hunks {
		f.Decisions[i] = wire.HunkDecision(h.Decision)
		if h.Decision == store.HunkApproved {
			f.Applied++
		}
	}
	return f
}

// ChangeDetail is a file change's card expanded.
func (l *Ledger) ChangeDetail(ctx context.Context, sessionID int64, toolUseID string) (wire.ChangeDetail, error) {
	cards, err := l.Cards(ctx, sessionID)
	if err != nil {
		return wire.ChangeDetail{}, err
	}
	s := cards.Changes[toolUseID]
	if s == nil {
		return wire.ChangeDetail{}, fmt.Errorf("tool call %s made no decided file change: %w", toolUseID, ErrNothing)
	}
	changes, err := l.st.Changes.List(ctx, sessionID)
	if err != nil {
		return wire.ChangeDetail{}, err
	}
	calls, err := l.st.ToolCalls.List(ctx, sessionID)
	if err != nil {
		return wire.ChangeDetail{}, err
	}
	var rows []store.Change
	for _, c := range calls {
		if c.ToolUseID != toolUseID {
			continue
		}
		for _, files := range latestAttempt(changes) {
			if files[0].ToolCallID == c.ID {
				rows = files
			}
		}
	}
	d := wire.ChangeDetail{Summary: *s}
	for _, c := range rows {
		d.Proposed = append(d.Proposed, wire.FileChange{Path: c.Path, IsNew: c.OldHash == "", Hunks: parseHunks(c.Hunks)})
		applied := wire.FileDiff{Path: c.Path, Hunks: []wire.Hunk{}}
		if s.CheckpointID != 0 {
			if fd, err := l.CheckpointDiff(ctx, s.CheckpointID, c.Path); err == nil {
				applied = fd
			}
		}
		d.Applied = append(d.Applied, applied)
	}
	return d, nil
}

// parseHunks reads stored hunks ("@@ -a,b +c,d @@" and prefixed lines)
// back into their view.
func parseHunks(hs []store.Hunk) []wire.Hunk {
	out := make([]wire.Hunk, 0, len(hs))
	for i, h := range hs {
		v := wire.Hunk{Index: i, Lines: []wire.DiffLine{}}
		f := strings.FieldsFunc(h.Header, func(r rune) bool { return r == ' ' || r == ',' || r == '@' || r == '-' || r == '+' })
		if len(f) == 4 {
			v.OldStart, _ = strconv.Atoi(f[0])
			v.OldLines, _ = strconv.Atoi(f[1])
			v.NewStart, _ = strconv.Atoi(f[2])
			v.NewLines, _ = strconv.Atoi(f[3])
		}
		oldNo, newNo := v.OldStart, v.NewStart
		for _, line := range strings.Split(h.Text, "\n") {
			if line == "" {
				continue
			}
			l := wire.DiffLine{Text: line[1:]}
			switch line[0] {
			case '+':
				l.Kind, l.NewNo = "add", newNo
				newNo++
			case '-':
				l.Kind, l.OldNo = "del", oldNo
				oldNo++
			default:
				l.Kind, l.OldNo, l.NewNo = "context", oldNo, newNo
				oldNo++
				newNo++
			}
			v.Lines = append(v.Lines, l)
		}
		out = append(out, v)
	}
	return out
}
