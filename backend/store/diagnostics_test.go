package store

import (
	"context"
	"testing"
)

// TestToolDiagnostics: what the language servers said after a call's
// change is kept with the call, read back through every listing (so a
// reloaded card shows it), and copied by a fork.
func TestToolDiagnostics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	_, sess := newSession(t, st, t.TempDir())
	msg, c, _ := seedConversation(t, st, sess)
	if c.Diagnostics != "" {
		t.Fatalf("a new call has diagnostics %q", c.Diagnostics)
	}
	const d = `{"errors":1,"warnings":0,"items":[{"path":"a.go","line":3,"col":2,"severity":"error","message":"undefined: frob"}]}`
	if err := st.ToolCalls.SetRecord(ctx, c.ID, RecordDiagnostics, d); err != nil {
		t.Fatal(err)
	}
	calls, err := st.ToolCalls.List(ctx, sess.ID)
	if err != nil || len(calls) != 1 || calls[0].Diagnostics != d {
		t.Fatalf("listed %+v, %v", calls, err)
	}
	tr, err := st.Sessions.Transcript(ctx, sess.ID)
	if err != nil || len(tr.ToolCalls) != 1 || tr.ToolCalls[0].Diagnostics != d {
		t.Fatalf("the transcript has %+v, %v", tr.ToolCalls, err)
	}
	fork, err := st.Sessions.Fork(ctx, sess.ID, msg.ID)
	if err != nil {
		t.Fatal(err)
	}
	fcalls, err := st.ToolCalls.List(ctx, fork.ID)
	if err != nil || len(fcalls) != 1 || fcalls[0].Diagnostics != d {
		t.Fatalf("the fork has %+v, %v", fcalls, err)
	}
}
