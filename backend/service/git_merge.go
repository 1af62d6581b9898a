package service

import (
	"context"

	"pilot/backend/branch"
	"pilot/backend/present"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Merging a branch (backend/branch) brings the hunks the user approved
// into the project folder as one change of a project-folder session
// ("Merge of branch pilot/NAME", made for it when there is none). The
// service holds the folder while the merge reads and writes it, stores
// the session and tells the faces.

// mergeTitle is the title of the session that holds a branch's merges.
func mergeTitle(branch string) string { return "Merge of branch " + branch }

// Merge brings the approved hunks of a worktree session's branch
// into the project folder.
func (gi *Git) Merge(ctx context.Context, sessionID int64, m wire.BranchMerge) (wire.MergeResult, error) {
	b, err := gi.worktreeSession(ctx, sessionID)
	if err != nil {
		return wire.MergeResult{}, err
	}
	br := b.branch()
	merge, err := br.Prepare(ctx, b.proj.Path, m)
	if err != nil {
		return wire.MergeResult{}, err
	}
	root, err := projectroot.New(b.proj.Path)
	if err != nil {
		return wire.MergeResult{}, err
	}
	defer root.Close()
	// One piece of work at a time in the folder: a command of another
	// session running there would otherwise count the merge's writes as
	// its own effects (ledger.Hold).
	release, err := gi.ledger.Hold(ctx, root.Dir(), "merging branch "+br.Name, nil)
	if err != nil {
		return wire.MergeResult{}, err
	}
	defer release()
	edits, res, err := merge.Plan(ctx, root)
	if err != nil || len(edits) == 0 {
		return res, err
	}
	sess, err := gi.mergeSession(ctx, b)
	if err != nil {
		return wire.MergeResult{}, err
	}
	res.SessionID = sess
	settled := func() { gi.publish(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: sess}) }
	if err := branch.Write(ctx, gi.ledger, gi.log, root, sess, br.Name, edits, settled); err != nil {
		return wire.MergeResult{}, err
	}
	return res, nil
}

// mergeSession is the project-folder session that holds the merges of a
// branch: the one titled for it, or a new one.
func (gi *Git) mergeSession(ctx context.Context, b branchOf) (int64, error) {
	title := mergeTitle(b.sess.Worktree.Branch)
	ss, err := gi.store.Sessions.List(ctx, b.proj.ID, 0, 0)
	if err != nil {
		return 0, err
	}
	for _, s := range ss {
		if s.Title == title && s.Worktree.Path == "" {
			return s.ID, nil
		}
	}
	s, err := gi.store.Sessions.Create(ctx, store.NewSession{ProjectID: b.proj.ID, Title: title,
		Provider: b.sess.Provider, Model: b.sess.Model, ApprovalMode: b.sess.ApprovalMode})
	if err != nil {
		return 0, err
	}
	gi.publish(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(s)})
	return s.ID, nil
}
