package service

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pilot/backend/llm"
)

// The window opening a folder through a link and by its real path sees
// one project, with the sessions of both.
func TestLinkAndRealPathAreOneProject(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t, nil)
	ctx := context.Background()
	real, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, dir := range []string{link, real} {
		p, err := w.Projects.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if p.Path != real {
			t.Errorf("OpenProject(%s).Path = %s, want %s", dir, p.Path, real)
		}
		s, err := w.Sessions.New(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.core.store.Messages.Append(ctx, s.ID, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock("hi")}}, llm.Usage{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	ps, err := w.Projects.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ids[0] != ids[1] {
		t.Fatalf("projects %+v (ids %v), want one", ps, ids)
	}
	ss, err := w.Sessions.List(ctx, ps[0].ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 {
		t.Errorf("the project lists %d sessions, want 2: %+v", len(ss), ss)
	}
}
