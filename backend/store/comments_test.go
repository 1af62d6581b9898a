package store

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"pilot/backend/wire"
)

// Issue 40: line comments are kept with the session (a reopened database
// still has them), a sent one is history, and export/import carries them.
func TestCommentsSurviveReopenSendAndImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := newStore(t)
	p, sess := newSession(t, s, t.TempDir())
	on := func(path string, line, end int, text string, origin wire.CommentOrigin) wire.LineComment {
		return wire.LineComment{SessionID: sess.ID, Comment: wire.Comment{
			Path: path, Line: line, EndLine: end, LineText: "line " + text, Text: text, Origin: origin, OriginRef: "a1"}}
	}
	a := must[wire.LineComment](t)(s.Comments.Save(ctx, on("main.go", 3, 0, "use a map", wire.CommentOnChange)))
	b := must[wire.LineComment](t)(s.Comments.Save(ctx, on("util.go", 7, 9, "these three lines are dead", wire.CommentOnBranch)))
	gone := must[wire.LineComment](t)(s.Comments.Save(ctx, on("x.go", 1, 0, "never mind", wire.CommentOnChanges)))
	if a.State != wire.CommentDraft || a.ID == 0 {
		t.Fatalf("a new comment is a draft with an id: %+v", a)
	}
	if err := s.Comments.Delete(ctx, sess.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	b.Line, b.EndLine, b.State = 8, 10, wire.CommentOutdated
	if _, err := s.Comments.Save(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := s.Comments.MarkSent(ctx, sess.ID, []int64{a.ID}); err != nil {
		t.Fatal(err)
	}
	a.State = wire.CommentSent

	// A sent comment is history: not changed, not deleted, not sent twice.
	if _, err := s.Comments.Save(ctx, a); err == nil {
		t.Error("a sent comment was changed")
	}
	if err := s.Comments.Delete(ctx, sess.ID, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting a sent comment: %v, want not found", err)
	}
	if err := s.Comments.MarkSent(ctx, sess.ID, []int64{b.ID, a.ID}); err == nil {
		t.Error("a comment was sent twice")
	}
	if _, err := s.Comments.Save(ctx, on("main.go", 0, 0, "no line", wire.CommentOnChange)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a comment on line 0: %v, want invalid", err)
	}

	want := []wire.LineComment{a, b}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := must[[]wire.LineComment](t)(s2.Comments.List(ctx, sess.ID)); !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopening:\n got %+v\nwant %+v", got, want)
	}

	var out bytes.Buffer
	if err := s2.WriteJSON(ctx, sess.ID, &out); err != nil {
		t.Fatal(err)
	}
	imported, err := s2.Import(ctx, p.ID, bytes.NewReader(out.Bytes()), "")
	if err != nil {
		t.Fatal(err)
	}
	got := must[[]wire.LineComment](t)(s2.Comments.List(ctx, imported.ID))
	if len(got) != len(want) {
		t.Fatalf("imported %d comments, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].SessionID != imported.ID || got[i].Comment != want[i].Comment {
			t.Errorf("imported comment %d: %+v, want %+v in session %d", i, got[i], want[i].Comment, imported.ID)
		}
	}
	var again bytes.Buffer
	if err := s2.WriteJSON(ctx, imported.ID, &again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(again.Bytes(), []byte(`"text": "these three lines are dead"`)) {
		t.Errorf("the imported session's export lost its comments:\n%s", again.String())
	}
}
