package notify

import (
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"pilot/backend/internal/dbustest"
	"pilot/backend/notify/notifytest"
	"pilot/backend/wire"
)

type passed struct{ names []string }

func (p *passed) Emit(name string, _ any) { p.names = append(p.names, name) }

// rig is a Notifier on a private session bus with the recording server.
type rig struct {
	n       *Notifier
	srv     *notifytest.Server
	next    *passed
	emit    wire.Emitter
	opened  chan Note
	urgent  atomic.Int32
	enabled atomic.Bool
}

func newRig(t *testing.T) *rig {
	t.Helper()
	addr := dbustest.Start(t)
	srv, err := notifytest.Serve(dbustest.Connect(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{srv: srv, next: &passed{}, opened: make(chan Note, 4)}
	r.enabled.Store(true)
	r.n = New(Options{
		Connect:  func() (*dbus.Conn, error) { return dbus.Connect(addr) },
		Enabled:  r.enabled.Load,
		Describe: func(id int64) string { return map[int64]string{7: "Fix the greeting"}[id] },
		Open:     func(id int64, approvalID string) { r.opened <- Note{SessionID: id, ApprovalID: approvalID} },
		Urgent:   func() { r.urgent.Add(1) },
	})
	t.Cleanup(r.n.Close)
	r.emit = r.n.Wrap(r.next)
	return r
}

// waitFor waits until the server has n notifications.
func (r *rig) waitFor(t *testing.T, n int) []notifytest.Notification {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := r.srv.Received()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server got %d notifications, want %d", len(got), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func approval(session int64, a wire.Approval) wire.ApprovalPayload {
	return wire.ApprovalPayload{Seq: wire.Seq{SessionID: session, Seq: 3}, Approval: a}
}

func TestNotifiesAPendingApprovalAndOpensItsSessionOnClick(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.n.SetFocused(false)
	r.emit.Emit(wire.AgentApproval, approval(7, wire.Approval{ID: "a1", Kind: "change", Tool: "patch_file", Paths: []string{"src/main.go"}}))
	got := r.waitFor(t, 1)[0]
	if got.Summary != "Pilot is waiting for your approval" || got.Body != "Fix the greeting: Change src/main.go" {
		t.Fatalf("notification = %q / %q", got.Summary, got.Body)
	}
	if got.AppName != "Pilot" || got.Entry != "pilot" || got.Icon != "pilot" || strings.Join(got.Actions, ",") != "default,Open" {
		t.Fatalf("notification = %+v", got)
	}
	if len(r.next.names) != 1 || r.next.names[0] != wire.AgentApproval {
		t.Fatalf("the window got %v", r.next.names)
	}
	if r.urgent.Load() != 1 {
		t.Fatalf("urgent marked %d times, want 1", r.urgent.Load())
	}
	if err := r.srv.Click(got.ID, "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-r.opened:
		// The window opens its inbox at the decision the notification was about.
		if o.SessionID != 7 || o.ApprovalID != "a1" {
			t.Fatalf("the click opened session %d at %q, want 7 at a1", o.SessionID, o.ApprovalID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the click did not open the session")
	}
}

func TestNotifiesOnlyWhenTheWindowIsNotFocusedAndSwitchedOn(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	cmd := approval(2, wire.Approval{ID: "c1", Kind: "command", Tool: "run_bash", Command: "go test ./..."})

	r.n.SetFocused(true)
	r.emit.Emit(wire.AgentApproval, cmd)
	r.emit.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Seq: wire.Seq{SessionID: 2}, Reason: "end_turn"})
	r.n.SetFocused(false)
	r.enabled.Store(false)
	r.emit.Emit(wire.AgentApproval, cmd)
	r.enabled.Store(true)
	r.emit.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Seq: wire.Seq{SessionID: 2}, Reason: "cancelled"})
	r.emit.Emit(wire.AgentState, wire.StatePayload{Seq: wire.Seq{SessionID: 2}, State: "streaming"})
	// The marker: the first notification the server may get.
	r.emit.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Seq: wire.Seq{SessionID: 2}, Reason: "end_turn"})
	r.waitFor(t, 1)
	time.Sleep(100 * time.Millisecond) // anything sent before the marker would be in by now
	got := r.srv.Received()
	if len(got) != 1 || got[0].Summary != "Pilot has finished" || got[0].Body != "" {
		t.Fatalf("the server got %+v, want only the finished turn", got)
	}
	if len(r.next.names) != 6 {
		t.Fatalf("the window got %d events, want all 6", len(r.next.names))
	}
	if r.urgent.Load() != 1 {
		t.Fatalf("urgent marked %d times, want 1", r.urgent.Load())
	}
}

func TestApprovalText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a    wire.Approval
		want string
	}{
		{wire.Approval{Tool: "run_bash", Command: "make test"}, "Run: make test"},
		{wire.Approval{Tool: "write_file", Paths: []string{"a.go"}}, "Change a.go"},
		{wire.Approval{Tool: "multi_patch", Paths: []string{"a.go", "b.go", "c.go"}}, "Change a.go and 2 more files"},
		{wire.Approval{Tool: "mcp__gh__issue", Server: "gh", McpTool: "issue"}, "Call issue on the MCP server gh"},
	}
	for _, tc := range tests {
		if got := approvalText(tc.a); got != tc.want {
			t.Errorf("approvalText(%+v) = %q, want %q", tc.a, got, tc.want)
		}
	}
}

func TestNoBusIsLoggedNotFatal(t *testing.T) {
	t.Parallel()
	n := New(Options{
		Connect: func() (*dbus.Conn, error) { return dbus.Connect("unix:path=/nonexistent/bus") },
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	p := &passed{}
	e := n.Wrap(p)
	e.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Reason: "end_turn"})
	e.Emit(wire.AgentTurnDone, wire.TurnDonePayload{Reason: "end_turn"})
	if len(p.names) != 2 {
		t.Fatalf("the window got %d events, want 2", len(p.names))
	}
}
