package service

import (
	"context"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// Issue 40: the draft comments of a session go to the model as one
// message, each anchored as path:line with the line's text; they are sent
// once, and the transcript shows the review as one line.
func TestReviewSendsTheDraftsAsOneMessage(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "I will fix both."}}})
	w, ev, _, s := openChat(t, srv, t.TempDir())
	ctx := context.Background()
	if got, err := w.Comments.List(ctx, s.ID); err != nil || got == nil {
		t.Errorf("a session without comments lists %v (%v), want an empty list (the window reads null as no list)", got, err)
	}
	if err := w.Comments.SendReview(ctx, s.ID); err == nil || !strings.Contains(err.Error(), "no comment to send") {
		t.Errorf("a review without comments: %v", err)
	}
	save := func(c wire.Comment) wire.LineComment {
		t.Helper()
		lc, err := w.Comments.Save(ctx, wire.LineComment{SessionID: s.ID, Comment: c})
		if err != nil {
			t.Fatal(err)
		}
		return lc
	}
	save(wire.Comment{Path: "main.go", Line: 12, LineText: "\treturn x", Text: "use a map", Origin: wire.CommentOnChange, OriginRef: "a1"})
	save(wire.Comment{Path: "util/s.go", Line: 3, EndLine: 5, LineText: "func f() {", Text: " dead code \n", Origin: wire.CommentOnBranch})
	empty := save(wire.Comment{Path: "x.go", Line: 1, Text: "", Origin: wire.CommentOnChanges})
	if _, err := w.Comments.Save(ctx, wire.LineComment{SessionID: s.ID, Comment: wire.Comment{Path: "", Line: 1, Origin: wire.CommentOnBranch}}); err == nil {
		t.Error("a comment on no file was saved")
	}

	if err := w.Comments.SendReview(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { p, ok := e.(wire.TurnDonePayload); return ok && p.Reason == "end_turn" })
	reqs := srv.ModelRequests()
	got := reqs[len(reqs)-1].LastUserText
	want := "Review of your work: 2 comments on lines of files (path:line and the line's text as the diff showed it).\n\n" +
		"1. main.go:12 (“return x”), on your proposed change:\nuse a map\n\n" +
		"2. util/s.go:3-5 (“func f() {”), on the branch:\ndead code\n\n" +
		"The proposed change was decided with this review: its result says which hunks were applied.\n"
	if got != want {
		t.Errorf("the model read:\n%q\nwant:\n%q", got, want)
	}

	list, err := w.Comments.List(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, lc := range list {
		if want := map[bool]wire.CommentState{true: wire.CommentDraft, false: wire.CommentSent}[lc.ID == empty.ID]; lc.State != want {
			t.Errorf("comment %d on %s is %s, want %s", lc.ID, lc.Path, lc.State, want)
		}
	}
	if err := w.Comments.SendReview(ctx, s.ID); err == nil {
		t.Error("the sent comments were sent again")
	}
	d, err := w.Sessions.Get(ctx, s.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b := d.Messages[0].Blocks[0]; b.Command != "Review — 2 comments" || b.Text != want {
		t.Errorf("the transcript shows %q (for %q)", b.Command, b.Text)
	}
}
