package service

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestViewRootFollowsTheSession: the file tree, the @ picker, previews and
// the git badge show a worktree session's worktree, the project folder for
// sessionID 0, and refuse a session of another project or a discarded
// worktree. The changed marks of a worktree session stay off the project
// folder's tree, where the same path is the user's untouched file.
func TestViewRootFollowsTheSession(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t, map[string]string{"a.txt": "user's\n"})
	edit, _ := json.Marshal(map[string]string{"path": "a.txt", "old_text": "user's", "new_text": "session's"})
	add, _ := json.Marshal(map[string]string{"path": "only-here.txt", "content": "new\n"})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Editing.", ToolCalls: []fakellm.ToolCall{{Name: "patch_file", Input: edit}, {Name: "write_file", Input: add}}},
		{Text: "Done."},
	}})
	t.Cleanup(srv.Close)
	w := newWorkspace(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.Worktrees.NewSession(ctx, p.ID, "tree")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sessions.SetMode(ctx, s.ID, "all"); err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Change a.txt and add a file", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s.ID })

	list := func(sessionID int64) []wire.TreeEntry {
		t.Helper()
		l, err := w.Files.ListDir(ctx, p.ID, sessionID, wire.DirPageQuery{Limit: 10})
		if err != nil {
			t.Fatalf("ListDir(session %d): %v", sessionID, err)
		}
		return slices.DeleteFunc(l.Entries, func(e wire.TreeEntry) bool { return e.Name == ".git" })
	}
	if got, want := list(s.ID), []wire.TreeEntry{{Name: "a.txt", Changed: true}, {Name: "only-here.txt", Changed: true}}; !slices.Equal(got, want) {
		t.Errorf("the worktree session's tree = %+v, want %+v", got, want)
	}
	if got, want := list(0), []wire.TreeEntry{{Name: "a.txt"}}; !slices.Equal(got, want) {
		t.Errorf("the project folder's tree = %+v, want %+v (the user's a.txt is not the session's change)", got, want)
	}

	if got, err := w.Files.Find(ctx, p.ID, s.ID, "only", 10); err != nil || !slices.Equal(got, []string{"only-here.txt"}) {
		t.Errorf("FindFiles in the worktree = %q, %v", got, err)
	}
	if got, err := w.Files.Find(ctx, p.ID, 0, "only", 10); err != nil || len(got) != 0 {
		t.Errorf("FindFiles in the project folder = %q, %v; want nothing", got, err)
	}

	for _, c := range []struct {
		session int64
		want    string
	}{{s.ID, "session's\n"}, {0, "user's\n"}} {
		if v, err := w.Files.Read(ctx, p.ID, c.session, "a.txt"); err != nil || v.Text != c.want {
			t.Errorf("ReadProjectFile(session %d) = %q, %v; want %q", c.session, v.Text, err, c.want)
		}
	}

	if st, err := w.Git.Status(ctx, p.ID, s.ID); err != nil || st != (wire.GitStatus{Repo: true, Branch: "pilot/tree", Uncommitted: 2}) {
		t.Errorf("GitStatus of the worktree session = %+v, %v; want pilot/tree with 2 uncommitted", st, err)
	}
	if st, err := w.Git.Status(ctx, p.ID, 0); err != nil || !st.Repo || st.Branch == "pilot/tree" || st.Uncommitted != 0 {
		t.Errorf("GitStatus of the project folder = %+v, %v; want its own clean branch", st, err)
	}

	other, err := w.Projects.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]error{}
	_, refused["ListDir"] = w.Files.ListDir(ctx, other.ID, s.ID, wire.DirPageQuery{Limit: 10})
	_, refused["FindFiles"] = w.Files.Find(ctx, other.ID, s.ID, "", 10)
	_, refused["ReadProjectFile"] = w.Files.Read(ctx, other.ID, s.ID, "a.txt")
	_, refused["GitStatus"] = w.Git.Status(ctx, other.ID, s.ID)
	for name, err := range refused {
		if err == nil || !strings.Contains(err.Error(), "another project") {
			t.Errorf("%s with a session of another project: %v; want it refused", name, err)
		}
	}

	if err := w.Worktrees.Discard(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Files.ListDir(ctx, p.ID, s.ID, wire.DirPageQuery{Limit: 10}); err == nil || !strings.Contains(err.Error(), "discarded") {
		t.Errorf("ListDir of a discarded worktree: %v; want a sentence saying it was discarded", err)
	}
}

// BenchmarkViewRootPage asks the file tree's second page of a kept listing
// of 1,000 files (what scrolling does), in the project folder and in a
// worktree session's worktree, whose sandbox root is opened and closed for
// every call: the difference is that opening.
func BenchmarkViewRootPage(b *testing.B) {
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("f%04d.txt", i)] = "x\n"
	}
	dir := gitRepo(b, files)
	w := newWorkspace(b, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := w.Worktrees.NewSession(ctx, p.ID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Minute) // trusted by its modification time (racyWindow)
	for _, d := range []string{dir, s.Worktree} {
		if err := os.Chtimes(d, old, old); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name    string
		session int64
	}{{"project", 0}, {"worktree", s.ID}} {
		b.Run(c.name, func(b *testing.B) {
			q := wire.DirPageQuery{Locale: "en-US", Limit: 200}
			first, err := w.Files.ListDir(ctx, p.ID, c.session, q)
			if err != nil {
				b.Fatal(err)
			}
			q.Version, q.Offset = first.Version, 200
			b.ReportAllocs()
			for b.Loop() {
				if l, err := w.Files.ListDir(ctx, p.ID, c.session, q); err != nil || l.Version != first.Version {
					b.Fatalf("page 2: version %d (want the kept %d), %v", l.Version, first.Version, err)
				}
			}
		})
	}
}
