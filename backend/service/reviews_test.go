package service

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// sumOK adds xs; sumWrong is it with a bug planted on line 5 (the loop
// stops one short), as a worktree's branch brings it in.
const sumOK = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) (s int) {\n\tfor i := 0; i < len(xs); i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\n"

var sumWrong = strings.Replace(sumOK, "len(xs)", "len(xs)-1", 1)

// TestReviewABranchThenFixAFinding: /review of a worktree session's
// branch with a planted bug: the scripted reviewer's finding is stored
// on calc.go:5 with the session and in its transcript; "Ask the agent to
// fix" is a normal turn whose message anchors the finding, and its change
// waits for approval with the file as it was; Dismiss is stored.
func TestReviewABranchThenFixAFinding(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: json.RawMessage(`{"path":"calc.go","line":5,"text":"The loop skips the last element."}`)},
			{Name: "report_finding", Input: json.RawMessage(`{"path":"calc.go","line":1,"text":"No package comment."}`)}},
			When: &fakellm.When{LastUserContains: "Review branch pilot/x"}},
		{Text: "One bug in calc.go.", When: &fakellm.When{ToolResultContains: "Recorded"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "patch_file", Input: json.RawMessage(`{"path":"calc.go","old_text":"len(xs)-1","new_text":"len(xs)"}`)}},
			When: &fakellm.When{LastUserContains: "Fix this finding of the review, at calc.go:5"}},
		{Text: "Fixed.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		{Text: "Title", Repeat: true},
	}})
	t.Cleanup(srv.Close)
	f := newBranchFixture(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()}, map[string]string{"calc.go": sumOK})
	ev := newWaiter()
	f.w.SetEmitter(ev)
	put(t, filepath.Join(f.wt, "calc.go"), sumWrong)
	ctx := context.Background()

	res, err := f.w.Reviews.Run(ctx, f.sess, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Scope != wire.ReviewBranch || len(res.Findings) != 2 || len(res.Notes) != 1 {
		t.Fatalf("review %+v: want the branch's two findings, the second moved", res)
	}
	bug := res.Findings[0]
	if bug.Path != "calc.go" || bug.Line != 5 || bug.SessionID != f.sess || bug.State != wire.FindingOpen || bug.ID == 0 {
		t.Errorf("finding %+v, want calc.go:5 open in session %d", bug, f.sess)
	}
	stored, err := f.w.Reviews.Findings(ctx, f.sess)
	if err != nil || len(stored) != 2 || stored[0] != bug {
		t.Errorf("stored %+v, %v", stored, err)
	}
	if d, err := f.w.Reviews.Dismiss(ctx, res.Findings[1].ID); err != nil || d.State != wire.FindingDismissed {
		t.Errorf("dismissed %+v, %v", d, err)
	}
	page, err := f.w.core.store.Sessions.Transcript(ctx, f.sess)
	if err != nil || len(page.Messages) != 2 || !strings.Contains(page.Messages[1].Content[0].Text, "calc.go:5: The loop skips the last element.") {
		t.Errorf("transcript %+v, %v: want the review's findings", page.Messages, err)
	}

	fixing, err := f.w.Reviews.Fix(ctx, bug.ID)
	if err != nil || fixing.State != wire.FindingFixing {
		t.Fatalf("fix: %+v, %v", fixing, err)
	}
	a := ev.wait(t, func(e any) bool { _, ok := e.(wire.ApprovalPayload); return ok }).(wire.ApprovalPayload)
	if a.Approval.Kind != wire.ApprovalChange || a.SessionID != f.sess {
		t.Errorf("approval %+v, want a change of session %d", a.Approval, f.sess)
	}
	if got := read(t, filepath.Join(f.wt, "calc.go")); got != sumWrong {
		t.Errorf("calc.go changed before the change was approved:\n%s", got)
	}
	if !slices.ContainsFunc(srv.ModelRequests(), func(r fakellm.Request) bool {
		return strings.Contains(r.LastUserText, "at calc.go:5 (“for i := 0; i < len(xs)-1; i++ {”):\n\nThe loop skips the last element.")
	}) {
		t.Errorf("no request carries the fix's message anchored on the finding's line: %+v", srv.ModelRequests())
	}
	if _, err := f.w.Reviews.Fix(ctx, bug.ID); !errors.Is(err, ErrBusy) {
		t.Errorf("a second fix while the turn runs: %v, want ErrBusy", err)
	}
	if err := f.w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{Files: []wire.FileDecision{{Path: "calc.go", Hunks: []bool{true}}}}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { _, ok := e.(wire.TurnDonePayload); return ok })
	if got := read(t, filepath.Join(f.wt, "calc.go")); got != sumOK {
		t.Errorf("calc.go after the approval:\n%s", got)
	}
}

// TestReviewUncommitted: a project session reviews its folder's
// uncommitted changes against HEAD; with none, it says so.
func TestReviewUncommitted(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: json.RawMessage(`{"path":"calc.go","line":5,"text":"Off by one."}`)}},
			When: &fakellm.When{LastUserContains: "Review the uncommitted changes"}},
		{Text: "Done.", Repeat: true},
	}})
	t.Cleanup(srv.Close)
	f := newBranchFixture(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()}, map[string]string{"calc.go": sumOK})
	ctx := context.Background()
	p, err := f.w.Projects.Open(ctx, f.proj)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.w.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.w.Reviews.Run(ctx, s.ID, ""); err == nil || !strings.Contains(err.Error(), "no changes to review") {
		t.Errorf("a review of no changes: %v", err)
	}
	put(t, filepath.Join(f.proj, "calc.go"), sumWrong)
	res, err := f.w.Reviews.Run(ctx, s.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Scope != wire.ReviewUncommitted || len(res.Findings) != 1 || res.Findings[0].Line != 5 {
		t.Errorf("review %+v", res)
	}
}

// TestReviewWhatTheSessionChanged: scope "session" reviews the session's
// own changes (its ledger's net diff) in its folder, not git's view.
func TestReviewWhatTheSessionChanged(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: json.RawMessage(`{"path":"calc.go","content":` + strconv.Quote(sumWrong) + `}`)}},
			When: &fakellm.When{LastUserContains: "Write calc.go"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "report_finding", Input: json.RawMessage(`{"path":"calc.go","line":5,"text":"Off by one."}`)}},
			When: &fakellm.When{LastUserContains: "Review what session"}},
		{Text: "Done.", Repeat: true},
	}})
	w, ev, p, _ := openChat(t, srv, t.TempDir())
	ctx := context.Background()
	s, err := w.Sessions.Start(ctx, p.ID, SessionStart{Mode: wire.ModeEdits})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Write calc.go", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s.ID })
	res, err := w.Reviews.Run(ctx, s.ID, wire.ReviewSession)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scope != wire.ReviewSession || len(res.Findings) != 1 || res.Findings[0].Path != "calc.go" || res.Findings[0].Line != 5 {
		t.Errorf("review %+v", res)
	}
}
