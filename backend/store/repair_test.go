package store

import (
	"context"
	"reflect"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

func TestRepair(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	assistantWithTools := llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		llm.TextBlock("Running three tools."),
		toolUse("done1", "read_file", `{"path":"a"}`),
		toolUse("err1", "run_bash", `{"command":"false"}`),
		toolUse("run1", "run_bash", `{"command":"sleep 100"}`),
		toolUse("none1", "glob", `{"pattern":"*"}`),
	}}
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store, x Session)
		check func(t *testing.T, ms []Message, calls []ToolCall)
	}{
		{
			name: "complete session is left alone",
			setup: func(t *testing.T, s *Store, x Session) {
				must[Message](t)(s.Messages.Append(ctx, x.ID, user("hi"), llm.Usage{}))
			},
			check: func(t *testing.T, ms []Message, _ []ToolCall) {
				if len(ms) != 1 {
					t.Errorf("messages = %+v", ms)
				}
			},
		},
		{
			name: "dangling tool_use blocks get results",
			setup: func(t *testing.T, s *Store, x Session) {
				must[Message](t)(s.Messages.Append(ctx, x.ID, user("go"), llm.Usage{}))
				a := must[Message](t)(s.Messages.Append(ctx, x.ID, assistantWithTools, llm.Usage{}))
				for _, c := range []struct {
					id     string
					status wire.ToolStatus
					out    string
				}{{"done1", wire.ToolDone, "file a"}, {"err1", wire.ToolError, "exit status 1"}, {"run1", wire.ToolRunning, ""}} {
					tc := must[ToolCall](t)(s.ToolCalls.Insert(ctx, ToolCall{SessionID: x.ID, MessageID: a.ID, Call: Call{ToolUseID: c.id, Name: "x"}}))
					if c.status != wire.ToolRunning {
						if err := s.ToolCalls.Finish(ctx, tc.ID, c.status, c.out); err != nil {
							t.Fatal(err)
						}
					}
				}
			},
			check: func(t *testing.T, ms []Message, calls []ToolCall) {
				if len(ms) != 3 || ms[2].Role != llm.RoleUser || len(ms[2].Content) != 4 {
					t.Fatalf("messages = %+v", ms)
				}
				want := []llm.ContentBlock{
					{Type: llm.BlockToolResult, ToolUseID: "done1", Content: "file a"},
					{Type: llm.BlockToolResult, ToolUseID: "err1", Content: "exit status 1", IsError: true},
					{Type: llm.BlockToolResult, ToolUseID: "run1", Content: InterruptedToolResult, IsError: true},
					{Type: llm.BlockToolResult, ToolUseID: "none1", Content: InterruptedToolResult, IsError: true},
				}
				for i, w := range want {
					if !reflect.DeepEqual(ms[2].Content[i], w) {
						t.Errorf("result %d = %+v, want %+v", i, ms[2].Content[i], w)
					}
				}
				if calls[2].Status != wire.ToolCancelled || calls[2].FinishedAt.IsZero() {
					t.Errorf("running call after repair = %+v", calls[2])
				}
			},
		},
		{
			name: "streaming message becomes interrupted",
			setup: func(t *testing.T, s *Store, x Session) {
				must[Message](t)(s.Messages.Append(ctx, x.ID, user("go"), llm.Usage{}))
				st := must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
				st.mu.Lock()
				st.pending, st.dirty = "half an ans", true
				if err := st.flushLocked(); err != nil {
					t.Fatal(err)
				}
				st.mu.Unlock()
			},
			check: func(t *testing.T, ms []Message, _ []ToolCall) {
				if len(ms) != 2 || ms[1].State != wire.MessageInterrupted || ms[1].Content[0].Text != "half an ans" {
					t.Errorf("messages = %+v", ms)
				}
			},
		},
		{
			name: "empty streaming message is removed",
			setup: func(t *testing.T, s *Store, x Session) {
				must[Message](t)(s.Messages.Append(ctx, x.ID, user("go"), llm.Usage{}))
				must[*Stream](t)(s.Messages.BeginStream(ctx, x.ID))
			},
			check: func(t *testing.T, ms []Message, _ []ToolCall) {
				if len(ms) != 1 {
					t.Errorf("messages = %+v", ms)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, path := newStore(t)
			_, x := newSession(t, s, "/p")
			tc.setup(t, s, x)
			if err := s.Sessions.SetState(ctx, x.ID, wire.SessionRunning); err != nil {
				t.Fatal(err)
			}
			// Reopening and repairing, as the service does after a crash.
			s.Close()
			s2, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if err := s2.Sessions.RepairAll(ctx); err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			if got := must[Session](t)(s2.Sessions.Get(ctx, x.ID)); got.State != wire.SessionInterrupted {
				t.Errorf("state after reopen = %s", got.State)
			}
			tc.check(t, must[[]Message](t)(s2.Messages.List(ctx, x.ID)), must[[]ToolCall](t)(s2.ToolCalls.List(ctx, x.ID)))
			if changed := must[bool](t)(s2.Sessions.Repair(ctx, x.ID)); changed {
				t.Error("second Repair changed something")
			}
			checkIntegrity(t, s2)
		})
	}
}
