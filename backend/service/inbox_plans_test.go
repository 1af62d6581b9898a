package service

import (
	"context"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

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
