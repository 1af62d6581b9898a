//go:build linux

package service

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// alive reports whether pid runs (a zombie waiting for its parent to reap
// it runs no more).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	return len(f) > 0 && f[0] != "Z"
}

// TestQuitMidTurn closes the service (what the window's shutdown does
// after the user confirmed quitting) while one session streams and another
// runs a command that started a background child: what was streamed is
// in the session afterwards, and no process of the command is left.
func TestQuitMidTurn(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pids")
	cmd := "echo $$ > " + pidFile + "; sleep 300 & echo $! >> " + pidFile + "; echo started; wait"
	// Outside the sandbox (mode all runs it without asking): the pid file
	// is outside the project, and the pids are the host's. The sandbox's
	// own end at Close is the sandbox's and agent's tests.
	input, _ := json.Marshal(map[string]any{"command": cmd, "sandbox": false, "reason": "writes its pids outside the project"})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "talk"}, StreamTokens: 2000, Fault: &fakellm.Fault{DelayMs: 5}},
		{When: &fakellm.When{LastUserContains: "run"}, Text: "Running it.", ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: input}}},
	}})
	t.Cleanup(srv.Close)
	home := t.TempDir()
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()}
	w := openAt(t, home, env)
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	talk, _ := w.Sessions.New(ctx, p.ID)
	if got := w.Turns.InFlight(ctx); len(got.Sessions) != 0 {
		t.Fatalf("in flight before any turn: %+v", got)
	}
	if err := w.Turns.SendMessage(ctx, talk.ID, "talk", nil); err != nil {
		t.Fatal(err)
	}
	run, _ := w.Sessions.New(ctx, p.ID)
	if err := w.core.agent.SetApprovalMode(ctx, run.ID, "all"); err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, run.ID, "run it", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { s, ok := e.(wire.StreamPayload); return ok && s.SessionID == talk.ID })
	ev.wait(t, func(e any) bool {
		o, ok := e.(wire.ToolOutputPayload)
		return ok && strings.Contains(o.Chunk, "started")
	})
	if got := w.Turns.InFlight(ctx); len(got.Sessions) != 2 {
		t.Fatalf("in flight = %+v, want both sessions", got)
	}
	pids := readPIDs(t, pidFile)

	w.Close()

	var streamed strings.Builder
	ev.mu.Lock()
	for _, e := range ev.events {
		if s, ok := e.(wire.StreamPayload); ok && s.SessionID == talk.ID {
			streamed.WriteString(s.Text)
		}
	}
	ev.mu.Unlock()
	if streamed.Len() == 0 {
		t.Fatal("nothing was streamed before closing")
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d of the command is still running after closing", pid)
		}
	}

	w2 := openAt(t, home, env)
	defer w2.Close()
	d, err := w2.Sessions.Get(ctx, talk.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var saved string
	for _, m := range d.Messages {
		if m.Role == "assistant" {
			for _, b := range m.Blocks {
				saved += b.Text
			}
		}
	}
	if saved != streamed.String() {
		t.Fatalf("saved %d bytes of the %d streamed:\nsaved:    %.80q\nstreamed: %.80q", len(saved), streamed.Len(), saved, streamed.String())
	}
	r, err := w2.Sessions.Get(ctx, run.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range r.ToolCalls {
		if c.Name == "run_bash" {
			found = true
			if c.Status != "cancelled" {
				t.Errorf("the command's card says %q after quitting, want cancelled", c.Status)
			}
		}
	}
	if !found {
		t.Fatal("the command's tool call was not saved")
	}
}
