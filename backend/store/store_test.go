package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"pilot/backend/llm"
	"pilot/backend/wire"
)

func TestOpenPragmas(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	for _, c := range []struct {
		db     string
		pragma string
		want   string
	}{
		{"w", "journal_mode", "wal"},
		{"w", "foreign_keys", "1"},
		{"r", "foreign_keys", "1"},
		{"w", "synchronous", "1"},
		{"w", "busy_timeout", "10000"},
		{"r", "query_only", "1"},
		{"w", "user_version", "19"},
		{"w", "page_size", "16384"},
	} {
		db := s.w
		if c.db == "r" {
			db = s.r
		}
		var got string
		if err := db.QueryRow("PRAGMA " + c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s PRAGMA %s = %s, want %s", c.db, c.pragma, got, c.want)
		}
	}
}

func TestProjects(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	clock := time.UnixMilli(1_000_000)
	s.now = func() time.Time { clock = clock.Add(time.Second); return clock }

	a := must[Project](t)(s.Projects.Touch(ctx, "/home/u/a/"))
	b := must[Project](t)(s.Projects.Touch(ctx, "/home/u/b"))
	if a.Path != "/home/u/a" || a.Name != "a" {
		t.Errorf("project = %+v", a)
	}
	again := must[Project](t)(s.Projects.Touch(ctx, "/home/u/a"))
	if again.ID != a.ID || !again.LastOpened.After(b.LastOpened) {
		t.Errorf("touch again = %+v, want same id %d, opened after b", again, a.ID)
	}
	ps := must[[]Project](t)(s.Projects.List(ctx))
	if len(ps) != 2 || ps[0].ID != a.ID || ps[1].ID != b.ID {
		t.Errorf("projects = %+v, want a then b", ps)
	}
	if _, err := s.Projects.Touch(ctx, "relative/dir"); !errors.Is(err, ErrInvalid) {
		t.Errorf("relative path: err = %v, want ErrInvalid", err)
	}
	if _, err := s.Projects.ByPath(ctx, "/never"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown path: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Projects.Get(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: err = %v, want ErrNotFound", err)
	}
}

func TestSessionsListPagingAndUpdates(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	clock := time.UnixMilli(1_000_000)
	s.now = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	p, first := newSession(t, s, "/p")
	var ids []int64
	ids = append(ids, first.ID)
	for range 4 {
		x := must[Session](t)(s.Sessions.Create(ctx, NewSession{ProjectID: p.ID}))
		ids = append(ids, x.ID)
	}
	// Activity on the first session makes it the newest.
	must[Message](t)(s.Messages.Append(ctx, first.ID, user("hello"), llm.Usage{}))
	want := []int64{ids[0], ids[4], ids[3], ids[2], ids[1]}

	tests := []struct {
		limit, offset int
		want          []int64
	}{
		{0, 0, want},
		{2, 0, want[:2]},
		{2, 2, want[2:4]},
		{10, 4, want[4:]},
		{10, 5, nil},
	}
	for _, tc := range tests {
		got := must[[]Session](t)(s.Sessions.List(ctx, p.ID, tc.limit, tc.offset))
		var gotIDs []int64
		for _, x := range got {
			gotIDs = append(gotIDs, x.ID)
		}
		if !equalIDs(gotIDs, tc.want) {
			t.Errorf("Sessions(limit %d, offset %d) = %v, want %v", tc.limit, tc.offset, gotIDs, tc.want)
		}
	}

	if err := s.Sessions.Rename(ctx, first.ID, "New title"); err != nil {
		t.Fatal(err)
	}
	if err := s.Sessions.UpdateUsage(ctx, first.ID, llm.Usage{InputTokens: 10, OutputTokens: 5, CacheReadTokens: 3, CacheWriteTokens: 2}, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := s.Sessions.UpdateUsage(ctx, first.ID, llm.Usage{InputTokens: 1, OutputTokens: 1}, 0.25); err != nil {
		t.Fatal(err)
	}
	if err := s.Sessions.SetState(ctx, first.ID, wire.SessionRunning); err != nil {
		t.Fatal(err)
	}
	got := must[Session](t)(s.Sessions.Get(ctx, first.ID))
	wantUsage := llm.Usage{InputTokens: 11, OutputTokens: 6, CacheReadTokens: 3, CacheWriteTokens: 2}
	if got.Title != "New title" || got.Usage != wantUsage || got.CostUSD != 0.75 || got.State != wire.SessionRunning {
		t.Errorf("session = %+v", got)
	}

	errTests := []struct {
		name string
		err  error
		want error
	}{
		{"bad state", s.Sessions.SetState(ctx, first.ID, "sleeping"), ErrInvalid},
		{"negative usage", s.Sessions.UpdateUsage(ctx, first.ID, llm.Usage{InputTokens: -100}, 0), ErrInvalid},
		{"rename missing", s.Sessions.Rename(ctx, 12345, "x"), ErrNotFound},
		{"delete missing", s.Sessions.Delete(ctx, 12345), ErrNotFound},
		{"append to missing", func() error { _, err := s.Messages.Append(ctx, 12345, user("x"), llm.Usage{}); return err }(), ErrNotFound},
		{"bad role", func() error {
			_, err := s.Messages.Append(ctx, first.ID, llm.Message{Role: "system"}, llm.Usage{})
			return err
		}(), ErrInvalid},
		{"session in missing project", func() error { _, err := s.Sessions.Create(ctx, NewSession{ProjectID: 999}); return err }(), ErrInvalid},
		{"bad approval mode", func() error {
			_, err := s.Sessions.Create(ctx, NewSession{ProjectID: p.ID, ApprovalMode: "maybe"})
			return err
		}(), ErrInvalid},
	}
	for _, tc := range errTests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
