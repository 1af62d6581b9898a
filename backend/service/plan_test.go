package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestPlanFlow drives plan mode the way the window does: switch the
// session to plan, get a plan and a task list, see both in the reopened
// session, approve the plan into ask, and review the edit it makes.
func TestPlanFlow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "t1", Name: "todo_write", Input: []byte(`{"todos":[{"content":"Write notes.txt","status":"pending"}]}`)},
			{ID: "p1", Name: "present_plan", Input: []byte(`{"plan":"Create notes.txt","steps":["Write notes.txt"]}`)},
		}, When: &fakellm.When{LastUserContains: "Plan"}},
		{ToolCalls: []fakellm.ToolCall{{ID: "w1", Name: "write_file", Input: []byte(`{"path":"notes.txt","content":"hi\n"}`)}},
			When: &fakellm.When{LastUserContains: "I approve this plan"}},
		{Text: "Written.", When: &fakellm.When{HasToolResult: true}},
	}})
	w, ev, _, s := openChat(t, srv, dir)
	ctx := context.Background()
	if v, err := w.Sessions.SetMode(ctx, s.ID, "plan"); err != nil || v.ApprovalMode != "plan" {
		t.Fatalf("SetSessionMode: %+v %v", v, err)
	}
	if _, err := w.Sessions.SetMode(ctx, s.ID, "sometimes"); err == nil || !strings.Contains(err.Error(), "use plan, ask, edits, all or none") {
		t.Errorf("unknown mode: %v", err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Plan a notes file", nil); err != nil {
		t.Fatal(err)
	}
	done := ev.wait(t, func(e any) bool { _, ok := e.(wire.TurnDonePayload); return ok }).(wire.TurnDonePayload)
	if done.Reason != "plan" {
		t.Fatalf("turn ended with %s", done.Reason)
	}
	d, err := w.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Session.ApprovalMode != "plan" || len(d.Todos) != 1 || d.Todos[0] != (wire.TodoItem{Content: "Write notes.txt", Status: "pending"}) {
		t.Fatalf("reopened: mode %s, todos %+v", d.Session.ApprovalMode, d.Todos)
	}
	for _, bad := range []struct{ mode, plan, want string }{
		{"plan", "x", "edits or ask"},
		{"all", "x", "edits or ask"},
		{"ask", "  ", "The plan is empty"},
	} {
		if _, err := w.Sessions.ApprovePlan(ctx, s.ID, bad.mode, bad.plan); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ApprovePlan(%s, %q): %v", bad.mode, bad.plan, err)
		}
	}
	v, err := w.Sessions.ApprovePlan(ctx, s.ID, "ask", "Create notes.txt\n\n1. Write notes.txt")
	if err != nil || v.ApprovalMode != "ask" {
		t.Fatalf("ApprovePlan: %+v %v", v, err)
	}
	a := ev.wait(t, func(e any) bool { _, ok := e.(wire.ApprovalPayload); return ok }).(wire.ApprovalPayload)
	if a.Approval.Tool != "write_file" {
		t.Fatalf("asked about %+v", a.Approval)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); !os.IsNotExist(err) {
		t.Fatal("the edit was written before the review")
	}
	if err := w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{Files: []wire.FileDecision{{Path: "notes.txt", Hunks: []bool{true}}}}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { p, ok := e.(wire.TurnDonePayload); return ok && p.Reason == "end_turn" })
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("notes.txt %q %v", b, err)
	}
	reqs := srv.ModelRequests()
	var work fakellm.Request
	for _, r := range reqs {
		if strings.Contains(r.LastUserText, "I approve this plan") {
			work = r
			break
		}
	}
	if !strings.Contains(work.LastUserText, "in ask mode (every change and command is shown to the user for approval).\n\nCreate notes.txt\n\n1. Write notes.txt") {
		t.Errorf("the work turn began with %q", work.LastUserText)
	}
	// The transcript shows the plan once (on its card): the message that
	// started the work reads as one short line, its full text kept for the model.
	d, err = w.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, m := range d.Messages {
		if m.Role == "user" && len(m.Blocks) > 0 && m.Blocks[0].Type == "text" {
			shown = append(shown, m.Blocks[0].Command)
		}
	}
	if len(shown) != 2 || shown[0] != "" || shown[1] != "Plan approved — switching to ask" {
		t.Errorf("the user messages show %q, want the request as typed and then %q", shown, "Plan approved — switching to ask")
	}
}

// TestDefaultModeForNewSessions: the mode saved in Settings is the one a
// new session starts in, every mode the session control offers included.
func TestDefaultModeForNewSessions(t *testing.T) {
	t.Parallel()
	w, _, p, _ := openChat(t, fakellm.New(fakellm.Script{}), t.TempDir())
	ctx := context.Background()
	for _, mode := range []wire.ApprovalMode{wire.ModePlan, wire.ModeNone, wire.ModeEdits, wire.ModeAsk} {
		v, _ := w.Settings.Get()
		if _, err := w.Settings.Save(wire.SettingsInput{Provider: v.Provider, ApprovalMode: mode}); err != nil {
			t.Fatalf("saving %s: %v", mode, err)
		}
		s, err := w.Sessions.New(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if s.ApprovalMode != mode {
			t.Errorf("default %s: the new session started in %s", mode, s.ApprovalMode)
		}
	}
}

// TestInboxListsAPlan: a session waiting on its plan is in the inbox
// (its name, the plan as the agent's words) while its card would offer
// it (plan mode, nothing written after it); approving it from the inbox
// is the card's ApprovePlan: the work turn runs, and the plan leaves.
func TestInboxListsAPlan(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "p1", Name: "present_plan", Input: []byte(`{"plan":"Create notes.txt\n\nOne file.","steps":["Write notes.txt","Check it"]}`)}},
			When: &fakellm.When{LastUserContains: "Plan"}},
		{ToolCalls: []fakellm.ToolCall{{ID: "w1", Name: "write_file", Input: []byte(`{"path":"notes.txt","content":"hi\n"}`)}},
			When: &fakellm.When{LastUserContains: "I approve this plan"}},
		{Text: "Written.", When: &fakellm.When{HasToolResult: true}},
	}})
	w, ev, p, s := openChat(t, srv, t.TempDir())
	ctx := context.Background()
	plans := func() []wire.InboxItem {
		t.Helper()
		items, err := w.Approvals.Inbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []wire.InboxItem
		for _, x := range items {
			if x.Approval.Kind == wire.ApprovalPlan {
				out = append(out, x)
			}
		}
		return out
	}
	if _, err := w.Sessions.SetMode(ctx, s.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	if err := w.Sessions.Rename(ctx, s.ID, "Notes"); err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Plan a notes file", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.Reason == wire.EndPlan })

	got := plans()
	if len(got) != 1 {
		t.Fatalf("inbox holds %d plans, want the session's one: %+v", len(got), got)
	}
	x := got[0]
	const text = "Create notes.txt\n\nOne file.\n\n## Steps\n1. Write notes.txt\n2. Check it"
	if x.SessionID != s.ID || x.Title != "Notes" || x.ProjectID != p.ID || x.Reason != text ||
		x.Approval.Tool != "present_plan" || x.Approval.ToolCallID != "p1" || !strings.HasPrefix(x.Approval.ID, PlanApprovalPrefix) || x.Since == 0 {
		t.Fatalf("the plan's item = %+v", x)
	}
	// Out of plan mode the card offers nothing, and neither does the inbox; back in it, both do.
	if _, err := w.Sessions.SetMode(ctx, s.ID, "ask"); err != nil {
		t.Fatal(err)
	}
	if got := plans(); len(got) != 0 {
		t.Fatalf("out of plan mode the inbox still holds %+v", got)
	}
	if _, err := w.Sessions.SetMode(ctx, s.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	if got := plans(); len(got) != 1 || got[0].Approval.ID != x.Approval.ID {
		t.Fatalf("back in plan mode the inbox holds %+v", got)
	}

	// Decided in the inbox as the card decides: the work turn runs and asks for its change.
	if _, err := w.Sessions.ApprovePlan(ctx, s.ID, "ask", x.Reason); err != nil {
		t.Fatal(err)
	}
	a := ev.wait(t, func(e any) bool { _, ok := e.(wire.ApprovalPayload); return ok }).(wire.ApprovalPayload)
	if a.Approval.Tool != "write_file" {
		t.Fatalf("the work turn asked about %+v", a.Approval)
	}
	items, err := w.Approvals.Inbox(ctx)
	if err != nil || len(items) != 1 || items[0].Approval.ID != a.Approval.ID {
		t.Fatalf("after the approval the inbox holds %+v (%v), want only the change", items, err)
	}
	if err := w.Approvals.DecideChange(a.Approval.ID, wire.ChangeDecision{}); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.Reason == wire.EndTurn })
	if got := plans(); len(got) != 0 {
		t.Fatalf("an approved plan is still in the inbox: %+v", got)
	}
	for _, r := range srv.ModelRequests() {
		if strings.Contains(r.LastUserText, "I approve this plan") && !strings.HasSuffix(r.LastUserText, text) {
			t.Errorf("the work turn began with %q, want the plan as the inbox showed it", r.LastUserText)
		}
	}
}
