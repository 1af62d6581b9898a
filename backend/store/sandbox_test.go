package store

import (
	"context"
	"testing"
)

// TestToolSandbox: how a command ran with respect to the sandbox is kept
// with the call, read back through every listing, and copied by a fork.
func TestToolSandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	_, sess := newSession(t, st, t.TempDir())
	msg, call, _ := seedConversation(t, st, sess)
	c := call
	if c.Sandbox != "" {
		t.Fatalf("a new call has sandbox %q", c.Sandbox)
	}
	const info = `{"sandboxed":true,"blocked":["The sandbox blocked a write to ~/.bashrc."]}`
	if err := st.ToolCalls.SetRecord(ctx, c.ID, RecordSandbox, info); err != nil {
		t.Fatal(err)
	}
	calls, err := st.ToolCalls.List(ctx, sess.ID)
	if err != nil || len(calls) != 1 || calls[0].Sandbox != info {
		t.Fatalf("listed %+v, %v", calls, err)
	}
	fork, err := st.Sessions.Fork(ctx, sess.ID, msg.ID)
	if err != nil {
		t.Fatal(err)
	}
	fcalls, err := st.ToolCalls.List(ctx, fork.ID)
	if err != nil || len(fcalls) != 1 || fcalls[0].Sandbox != info {
		t.Fatalf("the fork has %+v, %v", fcalls, err)
	}
}
