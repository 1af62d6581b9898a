package service

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pilot/backend/branch"
	"pilot/backend/diff"
	"pilot/backend/git"
	"pilot/backend/llm"
	"pilot/backend/review"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Reviews is /review (pilot review): a read-only helper (backend/review)
// reviews a session's branch or its project's uncommitted changes on the
// session's model; its findings are stored with the session, and the
// review is kept in the transcript (the command and the reviewer's
// findings), so the session's next turn knows them.
type Reviews struct{ *core }

// ErrBusy is wrapped by the error of a review or a fix asked while the
// session's turn runs.
var ErrBusy = errors.New("the session is busy")

// Run reviews for a session: scope "" is its branch for a worktree
// session, else its project's uncommitted changes; "session" is what the
// session itself changed (its ledger).
func (rv *Reviews) Run(ctx context.Context, sessionID int64, scope wire.ReviewScope) (wire.ReviewResult, error) {
	if err := rv.waitStarted(ctx); err != nil {
		return wire.ReviewResult{}, err
	}
	sess, err := rv.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return wire.ReviewResult{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	if rv.agent.Running(sessionID) {
		return wire.ReviewResult{}, fmt.Errorf("%w: session %d is running a turn; review once it ends, or in another session", ErrBusy, sessionID)
	}
	if scope == "" {
		scope = wire.ReviewUncommitted
		if sess.Worktree.Path != "" {
			scope = wire.ReviewBranch
		}
	}
	t, err := rv.target(ctx, sess, scope)
	if err != nil {
		return wire.ReviewResult{}, err
	}
	m, err := rv.svc.Turns.providerFor(ctx, sess)
	if err != nil {
		return wire.ReviewResult{}, err
	}
	name := sess.Model
	if r, err := rv.svc.Turns.sessionConfig(ctx, sess); err == nil {
		name = modelOf(r.LLM())
	}
	res, runErr := review.Run(ctx, review.Model{Provider: m.Provider, Name: name, MaxTokens: m.Facts.AnswerLimit()}, t)
	if res.Usage != (llm.Usage{}) {
		cost, _ := m.Facts.Cost(res.Usage)
		if err := rv.store.Sessions.UpdateUsage(context.WithoutCancel(ctx), sessionID, res.Usage, cost); err != nil {
			rv.log.Warn("review usage", "session", sessionID, "err", err)
		}
	}
	if runErr != nil {
		return wire.ReviewResult{}, runErr
	}
	found, err := rv.store.Findings.Add(ctx, sessionID, res.Findings)
	if err != nil {
		return wire.ReviewResult{}, err
	}
	out := wire.ReviewResult{SessionID: sessionID, Scope: scope, Findings: found, Notes: res.Notes}
	if err := rv.transcript(ctx, sessionID, t.What, res, out); err != nil {
		return out, err
	}
	return out, nil
}

// target is what a review of scope reads for a session.
func (rv *Reviews) target(ctx context.Context, sess store.Session, scope wire.ReviewScope) (review.Target, error) {
	switch scope {
	case wire.ReviewBranch:
		b, err := rv.svc.Git.worktreeSession(ctx, sess.ID)
		if err != nil {
			return review.Target{}, err
		}
		br := b.branch()
		v, err := br.Review(ctx)
		if err != nil {
			return review.Target{}, err
		}
		return review.Target{Dir: br.Worktree, What: fmt.Sprintf("branch %s against its base %s", v.Branch, v.Base), Files: v.Files}, nil
	case wire.ReviewUncommitted:
		p, err := rv.project(ctx, sess.ProjectID)
		if err != nil {
			return review.Target{}, err
		}
		g, err := git.Find(ctx)
		if err != nil {
			return review.Target{}, err
		}
		v, err := branch.Branch{Git: g, Name: "HEAD", Base: "HEAD", Worktree: p.Path}.Review(ctx)
		if err != nil {
			return review.Target{}, fmt.Errorf("the uncommitted changes of %s cannot be read (%w): /review needs a git repository with a first commit", p.Path, err)
		}
		return review.Target{Dir: p.Path, What: "the uncommitted changes of " + p.Path, Files: v.Files}, nil
	case wire.ReviewSession:
		return rv.sessionTarget(ctx, sess)
	}
	return review.Target{}, fmt.Errorf("%w: a review is of %q, %q or %q, not %q", ErrInvalid, wire.ReviewBranch, wire.ReviewUncommitted, wire.ReviewSession, scope)
}

// sessionTarget is what the session changed, file by file as its Changes
// view shows the net diff (a file back as it was, one listed without
// being kept, or one with no lines is left out), read in the session's
// folder.
func (rv *Reviews) sessionTarget(ctx context.Context, sess store.Session) (review.Target, error) {
	dir := sess.Worktree.Path
	if dir == "" {
		p, err := rv.project(ctx, sess.ProjectID)
		if err != nil {
			return review.Target{}, err
		}
		dir = p.Path
	}
	v, err := rv.svc.Ledger.Get(ctx, sess.ID)
	if err != nil {
		return review.Target{}, err
	}
	t := review.Target{Dir: dir, What: fmt.Sprintf("what session %d changed", sess.ID)}
	for _, f := range v.Files {
		if f.Kind == "" || f.Listed {
			continue
		}
		d, err := rv.svc.Ledger.FileDiff(ctx, sess.ID, f.Path)
		if err != nil {
			return review.Target{}, err
		}
		if len(d.Hunks) > 0 {
			t.Files = append(t.Files, wire.FileChange{Path: f.Path, Hunks: d.Hunks})
		}
	}
	return t, nil
}

// transcript keeps the review in the session: the command, and the
// reviewer's summary with the findings as path:line lines.
func (rv *Reviews) transcript(ctx context.Context, sessionID int64, what string, res review.Result, out wire.ReviewResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Review of %s: ", what)
	switch len(out.Findings) {
	case 0:
		b.WriteString("no findings.")
	case 1:
		b.WriteString("1 finding.")
	default:
		fmt.Fprintf(&b, "%d findings.", len(out.Findings))
	}
	if res.Summary != "" {
		b.WriteString(" " + res.Summary)
	}
	for _, f := range out.Findings {
		fmt.Fprintf(&b, "\n- %s:%d: %s", f.Path, f.Line, f.Text)
	}
	for _, n := range out.Notes {
		b.WriteString("\n(" + n + ")")
	}
	for _, m := range []llm.Message{
		{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("/review")}},
		{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock(b.String())}},
	} {
		if _, err := rv.store.Messages.Append(ctx, sessionID, m, llm.Usage{}); err != nil {
			return fmt.Errorf("the review's findings are stored, but not its place in the transcript: %w", err)
		}
	}
	return nil
}

// Findings lists a session's findings, oldest first.
func (rv *Reviews) Findings(ctx context.Context, sessionID int64) ([]wire.ReviewFinding, error) {
	return rv.store.Findings.List(ctx, sessionID)
}

// Dismiss marks a finding dismissed.
func (rv *Reviews) Dismiss(ctx context.Context, id int64) (wire.ReviewFinding, error) {
	return rv.store.Findings.SetState(ctx, id, wire.FindingDismissed)
}

// Fix asks the agent to fix a finding: a normal turn of its session,
// whose message anchors the finding (path:line and the line's text, as
// a line comment is anchored: diff.Anchor) and says it; the
// changes it proposes are reviewed as any are. The finding is then
// marked fixing.
func (rv *Reviews) Fix(ctx context.Context, id int64) (wire.ReviewFinding, error) {
	f, err := rv.store.Findings.Get(ctx, id)
	if err != nil {
		return wire.ReviewFinding{}, err
	}
	if rv.agent.Running(f.SessionID) {
		return wire.ReviewFinding{}, fmt.Errorf("%w: session %d is running a turn; ask for the fix once it ends", ErrBusy, f.SessionID)
	}
	if err := rv.svc.Turns.SendMessage(ctx, f.SessionID, FixMessage(f), nil); err != nil {
		return wire.ReviewFinding{}, err
	}
	return rv.store.Findings.SetState(ctx, id, wire.FindingFixing)
}

// FixMessage is the user's message that asks the agent to fix a finding.
func FixMessage(f wire.ReviewFinding) string {
	return "Fix this finding of the review, at " + diff.Anchor(wire.Comment{Path: f.Path, Line: f.Line, LineText: f.LineText}) + ":\n\n" + f.Text
}

// ErrNothingToReview is wrapped by Reviews.Run's error when there is no
// change to review.
var ErrNothingToReview = review.ErrNothing
