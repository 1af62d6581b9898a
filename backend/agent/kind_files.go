package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"pilot/backend/diff"
	"pilot/backend/gate"
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

// filesKind: a file change (write_file, patch_file, multi_patch), shown
// with its hunks; exactly the approved result is written. When a file
// changed on disk after the proposal, the tool is asked again against the
// current content and the user decides again: nothing is overwritten
// silently.
var filesKind = kind{proposes: true, question: filesQuestion, effect: writeFiles}

// filesQuestion records the proposed change and asks the gate about the
// files it writes, warming their language servers meanwhile.
func filesQuestion(c *call) (question, bool) {
	q, ok := changeQuestion(c)
	if ok {
		c.warmServers(q.call.Paths)
	}
	return q, ok
}

// changeQuestion records the proposed change (its hunks, for the review)
// and asks the gate about the files it writes.
func changeQuestion(c *call) (question, bool) {
	r, p := c.r, c.proposal
	bg := context.WithoutCancel(c.ctx)
	plans, err := c.record(bg, p)
	if err != nil {
		c.fail("The change could not be recorded: "+err.Error(), false)
		return question{}, false
	}
	c.plans = plans
	q := question{call: gate.Call{Tool: r.use.Name}, change: &wire.ChangeView{Tool: p.Tool}, again: c.attempt > 0,
		undecided: func() { c.decide(bg, plans) }}
	for _, f := range plans {
		q.call.Paths = append(q.call.Paths, f.change.Path)
		q.change.Files = append(q.change.Files, f.view)
	}
	q.card.Paths = q.call.Paths
	return q, true
}

// writeFiles writes what the decision approved, once the folder is held
// and a checkpoint taken; a file changed on disk meanwhile sends the
// change back to the tool and the user (errAgain).
func writeFiles(c *call) (tools.Result, error) {
	t, r, ctx, plans := c.t, c.r, c.ctx, c.plans
	l := t.l
	bg := context.WithoutCancel(ctx)
	dec, state, ok := c.applyDecision(bg, plans)
	if !ok {
		return tools.Result{}, nil
	}
	if o, ok := c.landing(ctx, plans); !ok {
		o.approval = state
		c.tell(o)
		return tools.Result{}, nil
	}
	summary := describe(plans, dec)
	p := c.proposal
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
		c.nothingWritten(summary, dec)
		return tools.Result{}, nil
	}
	release, _, err := c.hold(ctx, "writing "+writtenPaths(writes))
	if err != nil {
		o := cancelled(false)
		if ctx.Err() == nil {
			o = outcome{text: "Not applied: Pilot could not take this folder for the change (" + err.Error() + "). Nothing was written.", isError: true, status: wire.ToolError}
		}
		o.approval = state
		c.tell(o)
		return tools.Result{}, nil
	}
	stale := staleFiles(l.root, plans)
	if len(stale) == 0 {
		c.running(ctx)
		cp, err := c.checkpointEdit(bg, plans)
		if err != nil {
			release()
			c.fail("Not applied: Pilot could not keep a copy of the files to undo this change ("+err.Error()+"). Nothing was written.", true)
			l.m.log.Error("recording a checkpoint", "session", l.id, "err", err)
			return tools.Result{}, nil
		}
		res, err := l.registry.Apply(ctx, writes, opts)
		c.settle(bg, cp)
		release()
		if err != nil {
			c.fail("The change could not be written: "+err.Error(), true)
			return tools.Result{}, nil
		}
		if !res.IsError {
			c.applied(bg, plans)
			c.tell(outcome{text: summary + "\n" + res.Output, status: wire.ToolDone, approval: state, feedback: dec.Feedback})
			c.changed = filePaths(writes)
			return tools.Result{}, nil
		}
		stale = staleFiles(l.root, plans) // changed between the check and the write
		if len(stale) == 0 {
			c.fail(res.Output, true)
			return tools.Result{}, nil
		}
	} else {
		release()
	}
	if c.attempt+1 >= maxStale {
		c.fail(fmt.Sprintf("Not applied: %s kept changing on disk while the change was reviewed. Read it again and propose the change anew.", strings.Join(stale, ", ")), true)
		return tools.Result{}, nil
	}
	l.notice("stale", fmt.Sprintf("%s changed on disk since the change was proposed; it is shown again against the current content.", strings.Join(stale, ", ")), 0)
	res, err := l.registry.Execute(ctx, r.use.Name, r.use.Input)
	switch {
	case err != nil && ctx.Err() != nil:
		c.tell(cancelled(true))
		return tools.Result{}, nil
	case err != nil || res.IsError || res.Proposal == nil:
		why := res.Output
		if err != nil {
			why = err.Error()
		}
		c.fail(fmt.Sprintf("Not applied: %s changed on disk after you proposed this change (the user or another program edited it), and the change no longer applies to the current content: %s\nRead the file again and propose the change anew.", strings.Join(stale, ", "), why), false)
		return tools.Result{}, nil
	}
	c.proposal = res.Proposal
	return tools.Result{}, errAgain
}

// applyDecision works out each file's final text from the user's
// decision (all of the change when the gate let it through) and records
// the decision; false: the call ended, the decision not applicable.
func (c *call) applyDecision(bg context.Context, plans []*filePlan) (wire.ChangeDecision, store.Approval, bool) {
	dec, state := approveAll(plans), c.grant.state
	if c.grant.change != nil {
		dec = *c.grant.change
	}
	if err := plan(plans, dec); err != nil {
		c.fail("The decision could not be applied: "+err.Error(), false)
		return dec, state, false
	}
	c.decide(bg, plans)
	return dec, state, true
}

// nothingWritten ends a change the user rejected whole.
func (c *call) nothingWritten(summary string, dec wire.ChangeDecision) {
	c.tell(outcome{text: summary + "\nNothing was written.", status: wire.ToolRejected, approval: store.ApprovalRejected, feedback: dec.Feedback, refusedBy: store.RefusedUser})
}

// record computes each file's hunks and stores the proposed change.
func (c *call) record(ctx context.Context, p *tools.Proposal) ([]*filePlan, error) {
	t, r := c.t, c.r
	plans := make([]*filePlan, len(p.Files))
	for i, fc := range p.Files {
		c := fc
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
func (c *call) decide(ctx context.Context, plans []*filePlan) {
	t := c.t
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
func (c *call) applied(ctx context.Context, plans []*filePlan) {
	t := c.t
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

func approvalState(outcome wire.ApprovalOutcome) store.Approval {
	switch outcome {
	case wire.OutcomeApproved, wire.OutcomeEdited:
		return store.ApprovalApproved
	case wire.OutcomePartial:
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

// describe tells the model what became of each file, with the user's
// feedback and their comments on rejected hunks.
func describe(plans []*filePlan, dec wire.ChangeDecision) string {
	feedback := dec.Feedback
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
		lines = append(lines, f.change.Path+": "+diff.Describe(f.view.Hunks, f.approved, fb)+diff.Reasons(f.change.Path, f.view.Hunks, f.approved, dec.Comments))
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
