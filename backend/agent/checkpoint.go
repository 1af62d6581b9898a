package agent

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"pilot/backend/diff"
	"pilot/backend/ledger"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// checkpointEdit keeps the content before and after of each file an
// approved change is about to write, as a pending checkpoint.
func (c *call) checkpointEdit(ctx context.Context, plans []*filePlan) (store.Checkpoint, error) {
	t, r := c.t, c.r
	lg := t.l.m.ledger
	if lg == nil {
		return store.Checkpoint{}, nil
	}
	var files []ledger.EditFile
	for _, f := range plans {
		if !f.write {
			continue
		}
		ef := ledger.EditFile{Path: f.change.Path, New: []byte(f.final), Mode: f.change.Mode}
		if f.change.Existed {
			ef.Old = []byte(f.change.OldContent)
			ef.Before = ledger.FileState{Hash: ledger.Hash(ef.Old), Mode: f.change.Mode.Perm(), Size: int64(len(ef.Old))}
		}
		files = append(files, ef)
	}
	return lg.BeginEdit(ctx, t.l.id, r.rec.ID, stepLabel(files), files)
}

// stepLabel is the Changes view's label of an edit: what it changed in
// its first file (the first changed line, before → after) and the size
// written, from the content actually written (only the hunks the user
// approved, as edited), not from the model's proposal; "and N more files"
// for the others.
func stepLabel(files []ledger.EditFile) string {
	if len(files) == 0 {
		return ""
	}
	f := files[0]
	existed := f.Before.Exists()
	label := "Changed " + f.Path
	if !existed {
		label = "Created " + f.Path
	}
	if g := diff.Gist(string(f.Old), string(f.New)); g != "" && existed {
		label += ": " + g
	}
	label += " (" + diff.SizeChange(existed, len(f.Old), len(f.New)) + ")"
	switch n := len(files) - 1; n {
	case 0:
	case 1:
		label += " and 1 more file"
	default:
		label += fmt.Sprintf(" and %d more files", n)
	}
	return label
}

// settle finishes a checkpoint by looking at what was written.
func (c *call) settle(ctx context.Context, cp store.Checkpoint) {
	t := c.t
	lg := t.l.m.ledger
	if lg == nil || cp.ID == 0 {
		return
	}
	kept, err := lg.Settle(ctx, cp, t.l.root)
	if err != nil {
		t.l.m.log.Error("settling a checkpoint", "session", t.l.id, "checkpoint", cp.ID, "err", err)
		return
	}
	if kept {
		t.l.m.out.global(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: t.l.id})
	}
}

// beforeCommand scans the project before an approved command runs. A scan
// that fails does not stop the command; the card says its effects were
// not recorded.
func (c *call) beforeCommand(ctx context.Context) *ledger.Command {
	t := c.t
	lg := t.l.m.ledger
	if lg == nil {
		return nil
	}
	scan, err := lg.BeforeCommand(ctx, t.l.root)
	if err != nil {
		t.l.m.log.Error("checkpoint before a command", "session", t.l.id, "err", err)
		t.l.notice("limit", "Pilot could not take a checkpoint before this command ("+err.Error()+"): what it changes is not recorded and cannot be undone from Pilot.", 0)
	}
	return scan
}

// afterCommand records what the command changed, and returns the files
// it changed (relative to the session's folder) for their diagnostics,
// and what the model is told of those that can run code (runsCodeNote).
func (c *call) afterCommand(ctx context.Context, scan *ledger.Command, command string) ([]string, string) {
	t, r := c.t, c.r
	if scan == nil {
		return nil, ""
	}
	cp, err := scan.Finish(ctx, t.l.id, r.rec.ID, "$ "+command)
	if err != nil {
		t.l.m.log.Error("checkpoint after a command", "session", t.l.id, "err", err)
		t.l.notice("limit", "Pilot could not record what this command changed ("+err.Error()+"); it cannot be undone from Pilot.", 0)
		return nil, ""
	}
	if cp.ID != 0 {
		t.l.m.out.global(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: t.l.id})
	}
	paths := make([]string, len(cp.Files))
	for i, f := range cp.Files {
		paths[i] = f.Path
	}
	note := runsCodeNote("This command", cp)
	if note != "" {
		note = "\n\n" + note
	}
	return paths, note
}

// runsCodeShown is the most files that can run code a note names.
const runsCodeShown = 10

// runsCodeNote is one sentence naming the files a command's checkpoint
// changed that can run code (ledger.RunsCode decides), each with why and
// whether it can be undone: "This command changed files that can run
// code: sub/.git/hooks/post-checkout (a git hook; not kept, cannot be
// undone), run.sh (made executable)." "" when there are none. A path with
// characters that are not plainly printable is quoted.
func runsCodeNote(who string, cp store.Checkpoint) string {
	type named struct{ path, why string }
	var files []named
	for _, f := range cp.Files {
		if f.RunsCode != "" {
			why := f.RunsCode
			if !f.Before.Kept && f.Before.Hash != "" {
				why += "; not kept, cannot be undone"
			}
			files = append(files, named{f.Path, why})
		}
	}
	for _, f := range cp.Listed {
		if f.RunsCode != "" {
			files = append(files, named{f.Path, f.RunsCode + "; not kept, cannot be undone"})
		}
	}
	if len(files) == 0 {
		return ""
	}
	slices.SortFunc(files, func(a, b named) int { return strings.Compare(a.path, b.path) })
	parts := make([]string, 0, runsCodeShown+1)
	for i, f := range files {
		if i == runsCodeShown {
			parts = append(parts, fmt.Sprintf("and %d more (the command's card lists them)", len(files)-runsCodeShown))
			break
		}
		parts = append(parts, plainPath(f.path)+" ("+f.why+")")
	}
	what := "files"
	if len(files) == 1 {
		what = "a file"
	}
	return who + " changed " + what + " that can run code: " + strings.Join(parts, ", ") + "."
}

// plainPath is a path as the model reads it: quoted when it holds a
// character that is not a plain printable one (a newline, a control or
// format character), so a file's name cannot pass for Pilot's words.
func plainPath(p string) string {
	for _, r := range p {
		if !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
			return strconv.Quote(p)
		}
	}
	return p
}

// cards fills the ledger's part of a change-making call's card.
func (c *call) cards(ctx context.Context) {
	t, r := c.t, c.r
	lg := t.l.m.ledger
	if lg == nil || r.concurrent() {
		return
	}
	cards, err := lg.Cards(ctx, t.l.id)
	if err != nil {
		t.l.m.log.Warn("reading the ledger", "session", t.l.id, "err", err)
		return
	}
	cards.Fill(&r.view)
}
