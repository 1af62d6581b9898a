package store

import (
	"context"
	"testing"
)

// TestToolInstructions: the nested instruction files a call brought in
// are kept with it, listed for the session (those of calls from a
// message on: a compaction's first kept message), and copied by a fork.
func TestToolInstructions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	_, sess := newSession(t, st, t.TempDir())
	msg, c, _ := seedConversation(t, st, sess)
	if err := st.ToolCalls.SetRecord(ctx, c.ID, RecordInstructions, `["sub/AGENTS.md","sub/style.md"]`); err != nil {
		t.Fatal(err)
	}
	got, err := st.ToolCalls.Instructions(ctx, sess.ID, 0)
	if err != nil || len(got) != 2 || got[0] != (Brought{c.ToolUseID, "sub/AGENTS.md"}) || got[1].Name != "sub/style.md" {
		t.Fatalf("instructions %+v, %v", got, err)
	}
	if later, err := st.ToolCalls.Instructions(ctx, sess.ID, c.MessageID+1); err != nil || len(later) != 0 {
		t.Errorf("from a later message on: %+v, %v", later, err)
	}
	fork, err := st.Sessions.Fork(ctx, sess.ID, msg.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := st.ToolCalls.Instructions(ctx, fork.ID, 0); err != nil || len(f) != 2 {
		t.Errorf("the fork has %+v, %v", f, err)
	}
}
