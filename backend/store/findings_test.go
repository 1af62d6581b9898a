package store

import (
	"context"
	"errors"
	"testing"

	"pilot/backend/wire"
)

// TestFindingsSurviveARestart: a review's findings are stored with their
// session, open, read back after the database is opened again, change
// state (a state that is none of the three is refused), and go with
// their session.
func TestFindingsSurviveARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := newStore(t)
	_, x := newSession(t, s, "/proj")
	added := must[[]wire.ReviewFinding](t)(s.Findings.Add(ctx, x.ID, []wire.ReviewFinding{
		{Path: "calc.go", Line: 7, LineText: "for i := 1; i < n; i++ {", Text: "off by one"}, {Path: "main.go", Line: 2, Text: "unused import"}}))
	if len(added) != 2 || added[0].ID == 0 || added[0].State != wire.FindingOpen || added[1].SessionID != x.ID {
		t.Fatalf("added %+v", added)
	}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s2.Close() })
	if got := must[wire.ReviewFinding](t)(s2.Findings.SetState(ctx, added[1].ID, wire.FindingDismissed)); got.State != wire.FindingDismissed {
		t.Errorf("dismissed: %+v", got)
	}
	got := must[[]wire.ReviewFinding](t)(s2.Findings.List(ctx, x.ID))
	if len(got) != 2 || got[0] != added[0] || got[1].State != wire.FindingDismissed || got[1].Line != 2 {
		t.Errorf("after a restart: %+v, want %+v with the second dismissed", got, added)
	}
	for _, c := range []struct {
		id    int64
		state wire.FindingState
		want  error
	}{{added[0].ID, "gone", ErrInvalid}, {added[0].ID + 100, wire.FindingFixing, ErrNotFound}} {
		if _, err := s2.Findings.SetState(ctx, c.id, c.state); !errors.Is(err, c.want) {
			t.Errorf("SetState(%d, %q) = %v, want %v", c.id, c.state, err, c.want)
		}
	}
	if err := s2.Sessions.Delete(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	if got := must[[]wire.ReviewFinding](t)(s2.Findings.List(ctx, x.ID)); len(got) != 0 {
		t.Errorf("after the session was deleted: %+v", got)
	}
}
