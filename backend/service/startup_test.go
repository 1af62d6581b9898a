package service

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"pilot/backend/wire"

	"pilot/backend/paths"
	"pilot/backend/store"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A session a crash left running is repaired by the start-up work that
// runs off the first paint, once, and no list shows it running before.
func TestStartUpRepairsOnceBeforeSessionsAreListed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	home, dir := t.TempDir(), t.TempDir()
	if err := paths.Ensure(home); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	p, err := st.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Sessions.Create(ctx, store.NewSession{ProjectID: p.ID, Title: "cut off", Provider: "anthropic", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Sessions.SetState(ctx, s.ID, wire.SessionRunning); err != nil {
		t.Fatal(err)
	}
	st.Close() // as a crash leaves it

	var logs syncBuffer
	w, err := Open(ctx, Options{Home: home, Log: slog.New(slog.NewTextHandler(&logs, nil)), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ss, err := w.Sessions.List(ctx, p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].State != wire.SessionState(wire.SessionInterrupted) {
		t.Errorf("sessions right after Open: %+v, want the one session interrupted", ss)
	}
	out := logs.String()
	if n := strings.Count(out, `step="repair interrupted sessions"`); n != 1 {
		t.Errorf("RepairAll ran %d times, want once:\n%s", n, out)
	}
	for _, step := range []string{"open the database", "open the change ledger", "start the agent", "open the project", "settle pending checkpoints", "delete empty sessions left over"} {
		if !strings.Contains(out, `step="`+step+`" ms=`) {
			t.Errorf("no start-up line for %q with its duration:\n%s", step, out)
		}
	}
}
