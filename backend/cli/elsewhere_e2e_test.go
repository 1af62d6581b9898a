package cli

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/service"
	"pilot/backend/wire"
)

// summaries records the session:updated payloads a window's service sends.
type summaries struct {
	mu   sync.Mutex
	cond *sync.Cond
	got  []wire.SessionSummary
}

func (s *summaries) Emit(name string, payload any) {
	if p, ok := payload.(wire.SessionPayload); ok && name == wire.SessionUpdated {
		s.mu.Lock()
		s.got = append(s.got, p.Session)
		s.mu.Unlock()
		s.cond.Broadcast()
	}
}

// wait returns the first summary ok accepts, seen since the from-th.
func (s *summaries) wait(t *testing.T, what string, from int, ok func(wire.SessionSummary) bool) (wire.SessionSummary, int) {
	t.Helper()
	stop := time.AfterFunc(30*time.Second, s.cond.Broadcast)
	defer stop.Stop()
	start := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := from; ; {
		for ; i < len(s.got); i++ {
			if ok(s.got[i]) {
				return s.got[i], i + 1
			}
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the window was not told %s in 30 s (%d summaries: %+v)", what, len(s.got), s.got)
		}
		s.cond.Wait()
	}
}

// TestWindowFollowsAHeadlessRun: the window's service and a real `pilot -p`
// on one PILOT_HOME. The window is told the session runs in that process
// (its pid), reads the messages it commits as they land, and is told it no
// longer runs once the process is killed with SIGKILL.
func TestWindowFollowsAHeadlessRun(t *testing.T) {
	t.Parallel()
	slow := fakellm.Turn{Text: strings.Repeat("slow ", 4000), Fault: &fakellm.Fault{DelayMs: 5}}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{slow}})
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()
	ctx := context.Background()
	win, err := service.Open(ctx, service.Options{Home: home, Log: slog.New(slog.DiscardHandler), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer win.Close()
	seen := &summaries{}
	seen.cond = sync.NewCond(&seen.mu)
	win.SetEmitter(seen)

	cmd := command(t, srv, home, "-p", "write long", "--project", dir)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	go io.Copy(io.Discard, out)

	run, next := seen.wait(t, "of the run", 0, func(s wire.SessionSummary) bool {
		return s.Elsewhere != nil && s.Elsewhere.Pid == cmd.Process.Pid && s.Elsewhere.State == wire.StateStreaming
	})
	// The streamed message lands in the store (debounced) while the run goes on: the window is told and reads it.
	for {
		var s wire.SessionSummary
		s, next = seen.wait(t, "again while it runs", next, func(s wire.SessionSummary) bool { return s.ID == run.ID && s.Elsewhere != nil })
		d, err := win.Sessions.Get(ctx, s.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if last := d.Messages[len(d.Messages)-1]; last.Role == "assistant" && len(last.Blocks) > 0 && strings.Contains(last.Blocks[0].Text, "slow slow") {
			break
		}
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	seen.wait(t, "that the run ended", next, func(s wire.SessionSummary) bool { return s.ID == run.ID && s.Elsewhere == nil })
	list, err := win.Sessions.List(ctx, run.ProjectID, 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Elsewhere != nil || list[0].State != wire.SessionInterrupted {
		t.Fatalf("after kill -9 the window lists %+v; want the session interrupted, run nowhere", list)
	}
}
