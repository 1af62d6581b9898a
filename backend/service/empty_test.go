package service

import (
	"context"
	"testing"

	"pilot/backend/llm"
)

// A session created by session-new is listed while open, and deleted when
// the user leaves it without writing in it; one with a message stays.
func TestEmptySessionIsDroppedWhenLeft(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Sessions.New(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := w.Sessions.List(ctx, p.ID, 0, 0); len(list) != 1 {
		t.Fatalf("the new session is not listed: %+v", list)
	}
	b, err := w.Sessions.New(ctx, p.ID) // leaves a, empty
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.core.store.Messages.Append(ctx, b.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("hi")}}, llm.Usage{}); err != nil {
		t.Fatal(err)
	}
	c, err := w.Sessions.New(ctx, p.ID) // leaves b, which has a message
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sessions.Get(ctx, b.ID, 0); err != nil { // leaves c, empty
		t.Fatal(err)
	}
	list, err := w.Sessions.List(ctx, p.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != b.ID {
		t.Errorf("sessions %+v, want only %d (empty %d and %d dropped)", list, b.ID, a.ID, c.ID)
	}
}
