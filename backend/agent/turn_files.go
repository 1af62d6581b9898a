package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"pilot/backend/approval"
	"pilot/backend/diff"
	"pilot/backend/gate"
	"pilot/backend/permission"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

const (
	// maxStale is how many times a change is shown again because its file
	// changed on disk meanwhile.
	maxStale = 3
	// maxEditedEcho is the most of a user-edited file quoted back to the
	// model.
	maxEditedEcho = 16 << 10
)

// filePlan is one file of a change and what the decision makes of it.
type filePlan struct {
	change   tools.FileChange
	view     wire.FileChange
	diff     *diff.Diff
	id       int64   // the store's change row
	approved []bool  // per hunk; nil when the user edited the text
	edited   *string // the user's text
	final    string
	write    bool
}

// runFiles shows a file change, gets the decision, and writes exactly the
// approved result. When a file changed on disk after the proposal, the
// tool is asked again against the current content and the user decides
// again: nothing is overwritten silently.
func (t *turn) runFiles(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	bg := context.WithoutCancel(ctx)
	for attempt := 0; ; attempt++ {
		plans, err := t.record(bg, r, p)
		if err != nil {
			r.out = outcome{text: "The change could not be recorded: " + err.Error(), isError: true, status: store.ToolError}
			return
		}
		c := gate.Call{Tool: r.use.Name}
		for _, f := range plans {
			c.Paths = append(c.Paths, f.change.Path)
		}
		t.warmServers(c.Paths)
		d := t.judge(ctx, c)
		if attempt > 0 && d.Verdict == gate.Run {
			d = gate.Judge(permission.ModeAsk, nil, c) // a stale change is always shown again
		}
		var dec wire.ChangeDecision
		state := store.ApprovalAuto
		switch d.Verdict {
		case gate.Refuse:
			r.out = refusedBy(t.mode, d)
			t.decide(bg, plans)
			return
		case gate.Run:
			dec = approveAll(plans)
		case gate.Ask:
			ans, err := t.askChange(ctx, r, p, plans, d)
			if err != nil {
				r.out = cancelled(false)
				t.decide(bg, plans)
				return
			}
			dec, state = *ans.Change, approvalState(ans.Outcome)
			t.always(bg, d, dec.AlwaysAllow)
		}
		if err := plan(plans, dec); err != nil {
			r.out = outcome{text: "The decision could not be applied: " + err.Error(), isError: true, status: store.ToolError}
			return
		}
		t.decide(bg, plans)
		if !t.landing(ctx, r, plans) {
			r.out.approval = state
			return
		}
		summary := describe(plans, dec.Feedback)
		writes := &tools.Proposal{Tool: p.Tool, Note: p.Note}
		opts := tools.ApplyOptions{Final: map[string]string{}, Edited: map[string]bool{}}
		for _, f := range plans {
			if f.write {
				writes.Files = append(writes.Files, f.change)
				opts.Final[f.change.Path] = f.final
				opts.Edited[f.change.Path] = f.edited != nil
			}
		}
		if len(writes.Files) == 0 {
			r.out = outcome{text: summary + "\nNothing was written.", status: store.ToolRejected, approval: store.ApprovalRejected, feedback: dec.Feedback, refusedBy: store.RefusedUser}
			return
		}
		release, _, err := t.hold(ctx, r, "writing "+writtenPaths(writes))
		if err != nil {
			r.out = cancelled(false)
			if ctx.Err() == nil {
				r.out = outcome{text: "Not applied: Pilot could not take this folder for the change (" + err.Error() + "). Nothing was written.", isError: true, status: store.ToolError}
			}
			r.out.approval = state
			return
		}
		stale := staleFiles(l.root, plans)
		if len(stale) == 0 {
			t.running(ctx, r)
			cp, err := t.checkpointEdit(bg, r, plans)
			if err != nil {
				release()
				r.out = outcome{text: "Not applied: Pilot could not keep a copy of the files to undo this change (" + err.Error() + "). Nothing was written.", isError: true, status: store.ToolError, approval: state}
				l.m.log.Error("recording a checkpoint", "session", l.id, "err", err)
				return
			}
			res, err := l.registry.Apply(ctx, writes, opts)
			t.settle(bg, cp)
			release()
			if err != nil {
				r.out = outcome{text: "The change could not be written: " + err.Error(), isError: true, status: store.ToolError, approval: state}
				return
			}
			if !res.IsError {
				t.applied(bg, plans)
				r.out = outcome{text: summary + "\n" + res.Output, status: store.ToolDone, approval: state, feedback: dec.Feedback}
				t.diagnose(ctx, r, filePaths(writes))
				return
			}
			stale = staleFiles(l.root, plans) // changed between the check and the write
			if len(stale) == 0 {
				r.out = outcome{text: res.Output, isError: true, status: store.ToolError, approval: state}
				return
			}
		} else {
			release()
		}
		if attempt+1 >= maxStale {
			r.out = outcome{text: fmt.Sprintf("Not applied: %s kept changing on disk while the change was reviewed. Read it again and propose the change anew.", strings.Join(stale, ", ")), isError: true, status: store.ToolError, approval: state}
			return
		}
		l.notice("stale", fmt.Sprintf("%s changed on disk since the change was proposed; it is shown again against the current content.", strings.Join(stale, ", ")), 0)
		res, err := l.registry.Execute(ctx, r.use.Name, r.use.Input)
		switch {
		case err != nil && ctx.Err() != nil:
			r.out = cancelled(true)
			return
		case err != nil || res.IsError || res.Proposal == nil:
			why := res.Output
			if err != nil {
				why = err.Error()
			}
			r.out = outcome{text: fmt.Sprintf("Not applied: %s changed on disk after you proposed this change (the user or another program edited it), and the change no longer applies to the current content: %s\nRead the file again and propose the change anew.", strings.Join(stale, ", "), why), isError: true, status: store.ToolError}
			return
		}
		p = res.Proposal
	}
}

// askChange shows the change to the user, with the rules "always allow"
// would add, and waits for the decision.
func (t *turn) askChange(ctx context.Context, r *toolRun, p *tools.Proposal, plans []*filePlan, d gate.Decision) (approval.Answer, error) {
	view := wire.ChangeView{Tool: p.Tool}
	a := wire.Approval{ID: approval.NewID(), ToolCallID: r.use.ID, Tool: r.use.Name}
	for _, f := range plans {
		view.Files = append(view.Files, f.view)
		a.Paths = append(a.Paths, f.change.Path)
	}
	a.AlwaysRules, a.NoAlways = permission.RuleStrings(d.Always), d.NoAlways
	if len(a.AlwaysRules) == 0 {
		a.AlwaysRules = nil
	}
	if gate.ByAskRule(d) {
		a.AskRule = d.Rule.String()
	}
	t.awaiting(ctx, r, a.ID)
	return t.l.m.broker.AskChange(ctx, t.l.id, a, view)
}

// record computes each file's hunks and stores the proposed change.
func (t *turn) record(ctx context.Context, r *toolRun, p *tools.Proposal) ([]*filePlan, error) {
	plans := make([]*filePlan, len(p.Files))
	for i, c := range p.Files {
		d := diff.Compute(c.OldContent, c.NewContent)
		f := &filePlan{change: c, diff: d, view: wire.FileChange{
			Path: c.Path, IsNew: !c.Existed, NewText: c.NewContent, Emptied: c.NewContent == "", Hunks: d.Hunks(),
		}}
		oldHash := ""
		if c.Existed {
			oldHash = hash(c.OldContent)
		}
		row, err := t.l.m.st.Changes.Insert(ctx, store.Change{ToolCallID: r.rec.ID, Path: c.Path, OldHash: oldHash, NewHash: hash(c.NewContent), Hunks: storeHunks(f.view.Hunks)})
		if err != nil {
			return nil, err
		}
		f.id = row.ID
		plans[i] = f
	}
	return plans, nil
}

// decide records the decision on every hunk (pending ones stay pending
// when no decision came).
func (t *turn) decide(ctx context.Context, plans []*filePlan) {
	for _, f := range plans {
		hs := storeHunks(f.view.Hunks)
		for i := range hs {
			switch {
			case f.edited != nil:
				hs[i].Decision = store.HunkApproved
			case f.approved == nil:
			case f.approved[i]:
				hs[i].Decision = store.HunkApproved
			default:
				hs[i].Decision = store.HunkRejected
			}
		}
		if err := t.l.m.st.Changes.Decide(ctx, f.id, hs, f.edited); err != nil {
			t.l.m.log.Warn("saving the change decision", "err", err)
		}
	}
}

// applied records the files written.
func (t *turn) applied(ctx context.Context, plans []*filePlan) {
	for _, f := range plans {
		if f.write {
			if err := t.l.m.st.Changes.SetApplied(ctx, f.id, true, hash(f.final)); err != nil {
				t.l.m.log.Warn("saving the applied change", "err", err)
			}
		}
	}
}

// approveAll is the decision of a change the policy lets through.
func approveAll(plans []*filePlan) wire.ChangeDecision {
	var d wire.ChangeDecision
	for _, f := range plans {
		hunks := make([]bool, f.diff.Len())
		for i := range hunks {
			hunks[i] = true
		}
		d.Files = append(d.Files, wire.FileDecision{Path: f.change.Path, Hunks: hunks})
	}
	return d
}

func approvalState(outcome string) store.Approval {
	switch outcome {
	case approval.Approved, approval.Edited:
		return store.ApprovalApproved
	case approval.Partial:
		return store.ApprovalPartial
	}
	return store.ApprovalRejected
}

// plan works out each file's final text from the decision. A file the
// decision leaves out is rejected.
func plan(plans []*filePlan, dec wire.ChangeDecision) error {
	byPath := map[string]wire.FileDecision{}
	for _, fd := range dec.Files {
		byPath[fd.Path] = fd
	}
	for _, f := range plans {
		fd, ok := byPath[f.change.Path]
		switch {
		case ok && fd.EditedText != nil:
			f.edited = fd.EditedText
			f.final = *fd.EditedText
			f.write = f.final != f.change.OldContent || !f.change.Existed
			continue
		case ok:
			f.approved = fd.Hunks
		default:
			f.approved = make([]bool, f.diff.Len())
		}
		final, err := f.diff.Apply(f.approved)
		if err != nil {
			return fmt.Errorf("%s: %w", f.change.Path, err)
		}
		f.final = final
		for _, a := range f.approved {
			f.write = f.write || a
		}
	}
	return nil
}

// describe tells the model what became of each file.
func describe(plans []*filePlan, feedback string) string {
	var lines []string
	anyRejected := false
	for _, f := range plans {
		if f.edited != nil {
			text := f.final
			more := ""
			if len(text) > maxEditedEcho {
				more = fmt.Sprintf("\n[... %d more characters; read the file to see the rest]", len(text)-maxEditedEcho)
				text = text[:maxEditedEcho]
			}
			lines = append(lines, fmt.Sprintf("%s: the user edited your change before applying it; the file now reads:\n%s%s", f.change.Path, text, more))
			continue
		}
		rejected := false
		for _, a := range f.approved {
			rejected = rejected || !a
		}
		fb := ""
		if rejected {
			fb, anyRejected = feedback, true
		}
		lines = append(lines, f.change.Path+": "+diff.Describe(f.view.Hunks, f.approved, fb))
	}
	s := strings.Join(lines, "\n")
	if anyRejected {
		s += "\nRejected hunks were not written; read the file before changing it again."
	} else if fb := strings.TrimSpace(feedback); fb != "" {
		s += said(fb)
	}
	return s
}

// staleFiles returns the files to write whose content on disk is no
// longer what the proposal was made from.
// The files are read through the project's root: never through a link
// out, never waiting on something that is not a regular file.
func staleFiles(root *projectroot.Root, plans []*filePlan) []string {
	var out []string
	for _, f := range plans {
		if !f.write {
			continue
		}
		b, err := root.ReadFile(f.change.Abs, 64<<20) // Abs is inside the root
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if f.change.Existed {
				out = append(out, f.change.Path)
			}
		case err != nil:
			out = append(out, f.change.Path)
		case !f.change.Existed || string(b) != f.change.OldContent:
			out = append(out, f.change.Path)
		}
	}
	return out
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// writtenPaths lists the files a change writes, for the sessions waiting
// for it.
func writtenPaths(p *tools.Proposal) string {
	paths := make([]string, len(p.Files))
	for i, f := range p.Files {
		paths[i] = f.Path
	}
	return strings.Join(paths, ", ")
}
