package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

// seedConversation writes a session with text, thinking, a tool call that
// changed a file, and its result.
func seedConversation(t testing.TB, s *Store, x Session) (assistant Message, call ToolCall, change Change) {
	t.Helper()
	ctx := context.Background()
	must[Message](t)(s.Messages.Append(ctx, x.ID, user("Fix the parser bug in lexer.go please"), llm.Usage{}))
	assistant = must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		{Type: llm.BlockThinking, Thinking: "Look at the lexer first.", Signature: "sig-abc"},
		llm.TextBlock("I will patch the tokenizer."),
		toolUse("toolu_1", "patch_file", `{"path":"internal/lexer.go","old_text":"a","new_text":"b"}`),
	}}, llm.Usage{InputTokens: 100, OutputTokens: 20}))
	call = must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: assistant.ID, Call: Call{ToolUseID: "toolu_1", Name: "patch_file", Input: json.RawMessage(`{"path":"internal/lexer.go"}`)}}))
	edited := "package lexer\n"
	change = must[Change](t)(s.Changes.Insert(ctx, Change{ToolCallID: call.ID, Path: "internal/lexer.go", OldHash: "aaa", NewHash: "bbb",
		Hunks: []Hunk{{Header: "@@ -1 +1 @@", Text: "-a\n+b\n", Decision: HunkPending}}}))
	if err := s.ToolCalls.SetStatus(ctx, call.ID, wire.ToolAwaitingApproval); err != nil {
		t.Fatal(err)
	}
	if err := s.Changes.Decide(ctx, change.ID, []Hunk{{Header: "@@ -1 +1 @@", Text: "-a\n+b\n", Decision: HunkApproved}}, &edited); err != nil {
		t.Fatal(err)
	}
	if err := s.ToolCalls.SetApproval(ctx, call.ID, ApprovalApproved, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Changes.SetApplied(ctx, change.ID, true, "ccc"); err != nil {
		t.Fatal(err)
	}
	if err := s.ToolCalls.Finish(ctx, call.ID, wire.ToolDone, "patched internal/lexer.go: quokka"); err != nil {
		t.Fatal(err)
	}
	must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		toolResult("toolu_1", "patched internal/lexer.go: quokka")}}, llm.Usage{}))
	must[Message](t)(s.Messages.Append(ctx, x.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		llm.TextBlock("Done: the lexer handles `escapes` now.")}}, llm.Usage{InputTokens: 150, OutputTokens: 10}))
	if err := s.Sessions.UpdateUsage(ctx, x.ID, llm.Usage{InputTokens: 250, OutputTokens: 30}, 0.01); err != nil {
		t.Fatal(err)
	}
	return assistant, call, change
}

func TestConversationRoundTrip(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/proj")
	assistant, call, change := seedConversation(t, s, x)

	ms := must[[]Message](t)(s.Messages.List(ctx, x.ID))
	if len(ms) != 4 {
		t.Fatalf("%d messages, want 4", len(ms))
	}
	for i, m := range ms {
		if m.Seq != i || m.State != wire.MessageComplete {
			t.Errorf("message %d: seq %d state %s", i, m.Seq, m.State)
		}
	}
	if !reflect.DeepEqual(ms[1].Content, assistant.Content) || ms[1].Content[0].Signature != "sig-abc" {
		t.Errorf("assistant content = %+v", ms[1].Content)
	}
	if ms[1].Usage.InputTokens != 100 {
		t.Errorf("message usage = %+v", ms[1].Usage)
	}
	calls := must[[]ToolCall](t)(s.ToolCalls.List(ctx, x.ID))
	if len(calls) != 1 || calls[0].Status != wire.ToolDone || calls[0].Approval != ApprovalApproved ||
		calls[0].Output != "patched internal/lexer.go: quokka" || calls[0].FinishedAt.IsZero() || calls[0].ID != call.ID {
		t.Errorf("tool calls = %+v", calls)
	}
	chs := must[[]Change](t)(s.Changes.List(ctx, x.ID))
	if len(chs) != 1 || chs[0].ID != change.ID || !chs[0].Applied || chs[0].NewHash != "ccc" ||
		chs[0].Hunks[0].Decision != HunkApproved || chs[0].UserEdited == nil || *chs[0].UserEdited != "package lexer\n" {
		t.Errorf("changes = %+v", chs)
	}

	errTests := []struct {
		name string
		err  error
		want error
	}{
		{"final status via ToolCalls.SetStatus", s.ToolCalls.SetStatus(ctx, call.ID, wire.ToolDone), ErrInvalid},
		{"running via ToolCalls.Finish", s.ToolCalls.Finish(ctx, call.ID, wire.ToolRunning, ""), ErrInvalid},
		{"unknown status", s.ToolCalls.SetStatus(ctx, call.ID, "sleeping"), ErrInvalid},
		{"unknown approval", s.ToolCalls.SetApproval(ctx, call.ID, "perhaps", ""), ErrInvalid},
		{"missing tool call", s.ToolCalls.SetStatus(ctx, 999, wire.ToolRunning), ErrNotFound},
		{"missing change", s.Changes.SetApplied(ctx, 999, true, ""), ErrNotFound},
		{"duplicate tool_use id", func() error {
			_, err := s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: assistant.ID, Call: Call{ToolUseID: "toolu_1", Name: "x"}})
			return err
		}(), ErrInvalid},
		{"invalid input JSON", func() error {
			_, err := s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: assistant.ID, Call: Call{ToolUseID: "t9", Name: "x", Input: json.RawMessage("{")}})
			return err
		}(), ErrInvalid},
	}
	for _, tc := range errTests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	checkIntegrity(t, s)
}

func TestDeleteSessionCascades(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	assistant, _, _ := seedConversation(t, s, x)
	fork := must[Session](t)(s.Sessions.Fork(ctx, x.ID, assistant.ID))
	if len(must[[]SearchHit](t)(s.Search(ctx, p.ID, "quokka", 10))) == 0 {
		t.Fatal("search before delete found nothing")
	}
	if err := s.Sessions.Delete(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"messages", "tool_calls"} {
		var n int
		if err := s.r.QueryRow("SELECT count(*) FROM "+table+" WHERE session_id = ?", x.ID).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s of deleted session: %d (%v)", table, n, err)
		}
	}
	if _, err := s.Sessions.Get(ctx, x.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted session: err = %v", err)
	}
	// The fork survives without its parent, with its own copy.
	f := must[Session](t)(s.Sessions.Get(ctx, fork.ID))
	if f.ParentSessionID != 0 || f.ParentMessageID != 0 {
		t.Errorf("fork parent after delete = %d/%d, want 0/0", f.ParentSessionID, f.ParentMessageID)
	}
	hits := must[[]SearchHit](t)(s.Search(ctx, p.ID, "quokka", 10))
	for _, h := range hits {
		if h.SessionID == x.ID {
			t.Errorf("search finds deleted session: %+v", h)
		}
	}
	if len(hits) == 0 {
		t.Error("search does not find the fork's copy")
	}
	checkIntegrity(t, s)
}

func TestFork(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	_, x := newSession(t, s, "/proj")
	assistant, _, _ := seedConversation(t, s, x)
	if err := s.Sessions.Rename(ctx, x.ID, "Lexer"); err != nil {
		t.Fatal(err)
	}
	orig := must[[]Message](t)(s.Messages.List(ctx, x.ID))

	t.Run("at the last message copies everything", func(t *testing.T) {
		f := must[Session](t)(s.Sessions.Fork(ctx, x.ID, orig[3].ID))
		if f.Title != "Lexer (fork)" || f.ParentSessionID != x.ID || f.ParentMessageID != orig[3].ID || f.Usage != (llm.Usage{}) {
			t.Errorf("fork = %+v", f)
		}
		fm := must[[]Message](t)(s.Messages.List(ctx, f.ID))
		if len(fm) != 4 {
			t.Fatalf("%d messages, want 4", len(fm))
		}
		for i := range fm {
			if fm[i].ID == orig[i].ID || !reflect.DeepEqual(fm[i].Content, orig[i].Content) {
				t.Errorf("message %d not copied: %+v", i, fm[i])
			}
		}
		calls := must[[]ToolCall](t)(s.ToolCalls.List(ctx, f.ID))
		if len(calls) != 1 || calls[0].MessageID != fm[1].ID {
			t.Errorf("fork tool calls = %+v", calls)
		}
		if chs := must[[]Change](t)(s.Changes.List(ctx, f.ID)); len(chs) != 1 || chs[0].ToolCallID != calls[0].ID {
			t.Errorf("fork changes = %+v", chs)
		}
	})
	t.Run("at a tool_use closes it with the recorded result", func(t *testing.T) {
		f := must[Session](t)(s.Sessions.Fork(ctx, x.ID, assistant.ID))
		fm := must[[]Message](t)(s.Messages.List(ctx, f.ID))
		if len(fm) != 3 || fm[2].Role != llm.RoleUser {
			t.Fatalf("fork messages = %+v", fm)
		}
		r := fm[2].Content[0]
		if r.Type != llm.BlockToolResult || r.ToolUseID != "toolu_1" || r.Content != "patched internal/lexer.go: quokka" || r.IsError {
			t.Errorf("closing result = %+v", r)
		}
	})
	t.Run("message of another session", func(t *testing.T) {
		_, other := newSession(t, s, "/other")
		if _, err := s.Sessions.Fork(ctx, other.ID, orig[0].ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("err = %v, want ErrNotFound", err)
		}
	})
	checkIntegrity(t, s)
}

func TestRules(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, _ := newSession(t, s, "/proj")
	q, _ := newSession(t, s, "/other")
	a := must[Rule](t)(s.Rules.Add(ctx, Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "go test *", Effect: Allow}))
	again := must[Rule](t)(s.Rules.Add(ctx, Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "go test *", Effect: Allow}))
	if again.ID != a.ID {
		t.Errorf("duplicate rule got id %d, want %d", again.ID, a.ID)
	}
	must[Rule](t)(s.Rules.Add(ctx, Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "rm *", Effect: Deny}))
	must[Rule](t)(s.Rules.Add(ctx, Rule{ProjectID: q.ID, Tool: "write_file", Pattern: "*", Effect: Allow}))
	if _, err := s.Rules.Add(ctx, Rule{ProjectID: p.ID, Tool: "run_bash", Effect: "maybe"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad effect: err = %v", err)
	}
	rs := must[[]Rule](t)(s.Rules.List(ctx, p.ID))
	if len(rs) != 2 || rs[0].Pattern != "go test *" || rs[1].Effect != Deny {
		t.Errorf("rules = %+v", rs)
	}
	if err := s.Rules.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Rules.Delete(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete twice: err = %v", err)
	}
	if rs := must[[]Rule](t)(s.Rules.List(ctx, p.ID)); len(rs) != 1 {
		t.Errorf("rules after delete = %+v", rs)
	}
}

// TestProjectDeleteKeepsIndex: no API deletes projects yet, but the schema
// must keep the FTS index exact when a project row goes, forks included.
func TestProjectDeleteKeepsIndex(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	assistant, _, _ := seedConversation(t, s, x)
	must[Session](t)(s.Sessions.Fork(ctx, x.ID, assistant.ID))
	_, other := newSession(t, s, "/other")
	seedConversation(t, s, other)
	if _, err := s.w.Exec(`DELETE FROM projects WHERE id = ?`, p.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.r.QueryRow(`SELECT count(*) FROM messages WHERE session_id <> ?`, other.ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d messages of the deleted project left (%v)", left, err)
	}
	checkIntegrity(t, s)
}

func TestDeleteProject(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	p, x := newSession(t, s, "/proj")
	seedConversation(t, s, x)
	if _, err := s.Rules.Add(ctx, Rule{ProjectID: p.ID, Tool: "run_bash", Pattern: "make *", Effect: Allow}); err != nil {
		t.Fatal(err)
	}
	q, other := newSession(t, s, "/other")
	seedConversation(t, s, other)
	if err := s.Projects.Delete(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Projects.Delete(ctx, p.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := s.Sessions.Get(ctx, x.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("session of the deleted project: %v", err)
	}
	var rules int
	if err := s.r.QueryRow(`SELECT count(*) FROM permission_rules`).Scan(&rules); err != nil || rules != 0 {
		t.Errorf("%d rules left (%v)", rules, err)
	}
	for _, table := range []string{"messages", "tool_calls", "changes"} {
		var n int
		if err := s.r.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil || n == 0 {
			t.Errorf("%s: %d rows (%v): the other project's rows must stay", table, n, err)
		}
	}
	if hits := must[[]SearchHit](t)(s.Search(ctx, q.ID, "quokka", 10)); len(hits) != 1 {
		t.Errorf("other project's search: %+v", hits)
	}
	checkIntegrity(t, s)
}
