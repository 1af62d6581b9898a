package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// Plan mode is kept beside the approval mode: entering it keeps the mode
// to return to, leaving it sets a mode; forks and imports keep it.
func TestPlanMode(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	mode := func(id int64) string { return must[Session](t)(s.Sessions.Get(ctx, id)).ApprovalMode }
	for _, step := range []struct{ set, want string }{
		{"edits", "edits"}, {"plan", "plan"}, {"plan", "plan"}, {"ask", "ask"}, {"none", "none"}, {"plan", "plan"},
	} {
		if err := s.Sessions.SetApprovalMode(ctx, x.ID, step.set); err != nil {
			t.Fatal(err)
		}
		if got := mode(x.ID); got != step.want {
			t.Fatalf("after %s: mode %s", step.set, got)
		}
	}
	var prev string
	if err := s.r.QueryRowContext(ctx, `SELECT approval_mode FROM sessions WHERE id = ?`, x.ID).Scan(&prev); err != nil || prev != "none" {
		t.Errorf("mode kept under plan = %q (%v), want none", prev, err)
	}
	if err := s.Sessions.SetApprovalMode(ctx, x.ID, "sometimes"); err == nil {
		t.Error("an unknown mode was stored")
	}
	if err := s.Sessions.SetApprovalMode(ctx, 999, "ask"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing session: %v", err)
	}
	created := must[Session](t)(s.Sessions.Create(ctx, NewSession{ProjectID: p.ID, ApprovalMode: "plan"}))
	if created.ApprovalMode != "plan" {
		t.Errorf("created in plan mode: %s", created.ApprovalMode)
	}
	m := must[Message](t)(s.Messages.Append(ctx, x.ID, user("look around"), llm.Usage{}))
	fork := must[Session](t)(s.Sessions.Fork(ctx, x.ID, m.ID))
	if fork.ApprovalMode != "plan" {
		t.Errorf("fork mode %s", fork.ApprovalMode)
	}
	var doc bytes.Buffer
	if err := s.WriteJSON(ctx, x.ID, &doc); err != nil {
		t.Fatal(err)
	}
	// An import comes in at the mode it is given, not the file's.
	if imp := must[Session](t)(s.Import(ctx, p.ID, &doc, "")); imp.ApprovalMode != "ask" {
		t.Errorf("imported mode %s, want ask", imp.ApprovalMode)
	}
}

// The task list is the input of the latest todo_write that succeeded; a
// failed one never replaces it. Both exports carry it.
func TestTodosFromToolCalls(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/proj")
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("do three things"), llm.Usage{}))
	write := func(id, input string, status wire.ToolStatus) {
		m := must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{toolUse(id, todo.ToolName, input)}}, llm.Usage{}))
		c := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: m.ID, Call: Call{ToolUseID: id, Name: todo.ToolName, Input: json.RawMessage(input)}}))
		if err := s.ToolCalls.Finish(ctx, c.ID, status, "ok"); err != nil {
			t.Fatal(err)
		}
		must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{toolResult(id, "ok")}}, llm.Usage{}))
	}
	tr := func() Transcript { return must[Transcript](t)(s.Sessions.Transcript(ctx, x.ID)) }
	if got := tr().Todos(); got != nil {
		t.Errorf("todos before any call: %v", got)
	}
	write("t1", `{"todos":[{"content":"Parse","status":"in_progress"},{"content":"Print","status":"pending"}]}`, wire.ToolDone)
	write("t2", `{"todos":[{"content":"Parse","status":"in_progress"},{"content":"Print","status":"in_progress"}]}`, wire.ToolError)
	want := []todo.Item{{Content: "Parse", Status: todo.InProgress}, {Content: "Print", Status: todo.Pending}}
	if got := tr().Todos(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("todos = %v, want %v", got, want)
	}
	var md, js bytes.Buffer
	if err := s.WriteMarkdown(ctx, x.ID, &md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Task list (0 of 2 done)\n\n- [ ] Parse (in progress)\n- [ ] Print\n") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if err := s.WriteJSON(ctx, x.ID, &js); err != nil {
		t.Fatal(err)
	}
	var e Export
	if err := json.Unmarshal(js.Bytes(), &e); err != nil || len(e.Todos) != 2 || e.Todos[1] != want[1] {
		t.Errorf("json todos = %v (%v)", e.Todos, err)
	}
}
