package service

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/git"
	"pilot/backend/internal/fakellm"
	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/trustfile"
	"pilot/backend/wire"
)

// gitRepo makes a repository with a committed file in a new folder.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dir, "init", "-q")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start")
	return dir
}

func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	g, err := git.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Run(context.Background(), dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tree reads every file under dir, path → content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWorktreeSessionEndToEnd: a worktree session gets its own worktree on
// pilot/NAME under PILOT_HOME, its turn writes there and not in the
// user's tree, git records nothing but the worktree and its branch, and
// discarding removes both while the session stays as marked history.
func TestWorktreeSessionEndToEnd(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t, map[string]string{"notes.txt": "one\n"})
	before := tree(t, dir)
	input, _ := json.Marshal(map[string]string{"path": "added.txt", "content": "ONE\n"})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "Editing.", ToolCalls: []fakellm.ToolCall{{Name: "write_file", Input: input}}},
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
	s, err := w.Worktrees.NewSession(ctx, p.ID, "fix")
	if err != nil {
		t.Fatal(err)
	}
	wt := paths.Worktree(w.core.home, p.ID, "fix")
	if s.Branch != "pilot/fix" || s.Worktree != wt {
		t.Fatalf("session %+v: want branch pilot/fix in %s", s, wt)
	}
	if _, err := w.Sessions.SetMode(ctx, s.ID, "all"); err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "Capitalise notes.txt", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool {
		d, ok := e.(wire.TurnDonePayload)
		return ok && d.SessionID == s.ID
	})
	if b, _ := os.ReadFile(filepath.Join(wt, "added.txt")); string(b) != "ONE\n" {
		t.Fatalf("the worktree's added.txt = %q, want the session's file", b)
	}
	after := tree(t, dir)
	for name, text := range before {
		if after[name] != text {
			t.Errorf("%s in the user's tree changed", name)
		}
	}
	for name := range after {
		_, had := before[name]
		allowed := strings.HasPrefix(name, ".git/worktrees/fix/") || name == ".git/refs/heads/pilot/fix" || name == ".git/logs/refs/heads/pilot/fix"
		if !had && !allowed {
			t.Errorf("%s appeared in the user's tree", name)
		}
	}
	if got := runGit(t, dir, "branch", "--list", "pilot/fix"); !strings.Contains(got, "pilot/fix") {
		t.Fatalf("git branch does not list pilot/fix: %q", got)
	}
	list, err := w.Worktrees.Sessions(ctx, p.ID)
	if err != nil || len(list) != 1 || list[0].ID != s.ID {
		t.Fatalf("WorktreeSessions = %+v, %v", list, err)
	}

	if err := w.Worktrees.Discard(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Fatalf("the worktree folder is still there: %v", err)
	}
	if got := runGit(t, dir, "branch", "--list", "pilot/fix"); got != "" {
		t.Fatalf("the branch is still there: %q", got)
	}
	if got := runGit(t, dir, "worktree", "list", "--porcelain"); strings.Contains(got, wt) {
		t.Fatalf("git still lists the worktree: %q", got)
	}
	list, _ = w.Worktrees.Sessions(ctx, p.ID)
	if len(list) != 1 || !list[0].WorktreeDiscarded || list[0].Branch != "pilot/fix" {
		t.Fatalf("after discard the session is %+v, want it kept and marked", list)
	}
	err = w.Turns.SendMessage(ctx, s.ID, "more", nil)
	if err == nil || !strings.Contains(err.Error(), "discarded") || !strings.Contains(err.Error(), "new session") {
		t.Fatalf("a turn in a discarded session: %v, want a sentence saying so", err)
	}
	if err := w.Worktrees.Discard(ctx, s.ID); err == nil || !strings.Contains(err.Error(), "already discarded") {
		t.Fatalf("a second discard: %v", err)
	}
}

// TestWorktreeSessionRefused: every case that cannot get a worktree is
// refused with a sentence that says what to do, and leaves no session,
// worktree or branch behind.
func TestWorktreeSessionRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorkspace(t, nil)
	repo := gitRepo(t, map[string]string{"a.txt": "a\n"})
	runGit(t, repo, "branch", "pilot/mine")
	empty := t.TempDir()
	runGit(t, empty, "init", "-q")
	plain := t.TempDir()
	rp, _ := w.Projects.Open(ctx, repo)
	// Another process's worktree session (this one's empty sessions go when
	// the next starts): git made its worktree and branch.
	runGit(t, repo, "worktree", "add", "-q", "-b", "pilot/other", paths.Worktree(w.core.home, rp.ID, "other"))
	for _, c := range []struct {
		what, dir, name, want string
	}{
		{"an empty name", repo, "", "needs a name"},
		{"a name made by another process", repo, "other", "already has a worktree named"},
		{"a slash", repo, "a/b", "letters, digits"},
		{"a leading dash", repo, "-rf", "letters, digits"},
		{"dot dot", repo, "a..b", "no \"..\""},
		{"the user's own branch", repo, "mine", "git branch -D pilot/mine"},
		{"a folder outside git", plain, "x", "git init"},
		{"a repository with no commit", empty, "x", "first commit"},
	} {
		p, err := w.Projects.Open(ctx, c.dir)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := w.Sessions.List(ctx, p.ID, 0, 0)
		_, err = w.Worktrees.NewSession(ctx, p.ID, c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a sentence with %q", c.what, err, c.want)
		}
		after, _ := w.Sessions.List(ctx, p.ID, 0, 0)
		if len(after) != len(before) {
			t.Errorf("%s: a session was created", c.what)
		}
	}
	if got := runGit(t, repo, "worktree", "list", "--porcelain"); strings.Count(got, "worktree ") != 2 {
		t.Fatalf("worktrees after the refusals: %s", got)
	}
}

// TestDeleteWorktreeSession: deleting a worktree session removes its
// worktree and branch; one never written in is kept when the user leaves
// it (empty sessions are dropped, worktree sessions are not).
func TestDeleteWorktreeSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorkspace(t, nil)
	repo := gitRepo(t, map[string]string{"a.txt": "a\n"})
	p, _ := w.Projects.Open(ctx, repo)
	s, err := w.Worktrees.NewSession(ctx, p.ID, "gone")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.Worktree, "wip.txt"), []byte("uncommitted"), 0o644)
	if err := w.Sessions.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	left, err := w.Worktrees.NewSession(ctx, p.ID, "left")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Sessions.New(ctx, p.ID); err != nil { // leaves "left" without a message
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Worktree); !os.IsNotExist(err) {
		t.Errorf("deleted: the worktree is still there (%v)", err)
	}
	if got := runGit(t, repo, "branch", "--list", s.Branch); got != "" {
		t.Errorf("deleted: the branch %s is still there", s.Branch)
	}
	// A worktree session the user named is not a throwaway, even without a
	// message: leaving it keeps it, its worktree and its branch.
	if _, err := w.core.store.Sessions.Get(ctx, left.ID); err != nil {
		t.Errorf("the worktree session left without a message was deleted: %v", err)
	}
	if _, err := os.Stat(left.Worktree); err != nil {
		t.Errorf("the worktree of the session left without a message was removed: %v", err)
	}
	if got := runGit(t, repo, "branch", "--list", left.Branch); got == "" {
		t.Errorf("the branch %s of the session left without a message was deleted", left.Branch)
	}
}

// TestWorktreeMCPTrust: the project's trust covers the same .mcp.json in
// its worktrees, and nothing else.
func TestWorktreeMCPTrust(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const cfg = `{"mcpServers": {"echo": {"command": "echo"}}}`
	for _, c := range []struct {
		what          string
		trust, change bool
		want          bool
	}{
		{"trusted, same file", true, false, true},
		{"not trusted", false, false, false},
		{"trusted, then changed by the user (uncommitted)", true, true, false},
	} {
		t.Run(c.what, func(t *testing.T) {
			t.Parallel()
			w := newWorkspace(t, nil)
			repo := gitRepo(t, map[string]string{".mcp.json": cfg})
			if c.change {
				os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte(`{"mcpServers": {"other": {"command": "true"}}}`), 0o644)
			}
			raw, _ := os.ReadFile(filepath.Join(repo, ".mcp.json"))
			if c.trust {
				if err := mcp.Trust(w.core.home, repo, trustfile.Hash(raw)); err != nil {
					t.Fatal(err)
				}
			}
			p, _ := w.Projects.Open(ctx, repo)
			s, err := w.Worktrees.NewSession(ctx, p.ID, "m")
			if err != nil {
				t.Fatal(err)
			}
			got, err := mcp.Trusted(w.core.home, s.Worktree, trustfile.Hash([]byte(cfg)))
			if err != nil || got != c.want {
				t.Fatalf("the worktree's .mcp.json trusted = %v (%v), want %v", got, err, c.want)
			}
			// Discarded, its trust goes with it: a later worktree of the
			// same name starts from the project's trust again.
			if err := w.Worktrees.Discard(ctx, s.ID); err != nil {
				t.Fatal(err)
			}
			if mcp.WasTrusted(w.core.home, s.Worktree) {
				t.Fatal("the discarded worktree is still in the trust file")
			}
		})
	}
}

// TestWorktreeSessionInSubfolder: a project that is a folder inside a
// repository works in the same folder inside its worktree.
func TestWorktreeSessionInSubfolder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorkspace(t, nil)
	repo := gitRepo(t, map[string]string{"app/main.go": "package main\n"})
	p, _ := w.Projects.Open(ctx, filepath.Join(repo, "app"))
	s, err := w.Worktrees.NewSession(ctx, p.ID, "sub")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(paths.Worktree(w.core.home, p.ID, "sub"), "app"); s.Worktree != want {
		t.Fatalf("Worktree = %s, want %s", s.Worktree, want)
	}
	if err := w.Worktrees.Discard(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(paths.Worktree(w.core.home, p.ID, "sub")); !os.IsNotExist(err) {
		t.Fatalf("the worktree is still there: %v", err)
	}
}

// TestWorktreeFork: a fork works in its parent's worktree; deleting one of
// the two keeps the worktree for the other, and discarding marks both.
func TestWorktreeFork(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{{Text: "Hello."}}})
	t.Cleanup(srv.Close)
	w := newWorkspace(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL()})
	ev := newWaiter()
	w.SetEmitter(ev)
	ctx := context.Background()
	repo := gitRepo(t, map[string]string{"a.txt": "a\n"})
	p, _ := w.Projects.Open(ctx, repo)
	s, err := w.Worktrees.NewSession(ctx, p.ID, "f")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Turns.SendMessage(ctx, s.ID, "hi", nil); err != nil {
		t.Fatal(err)
	}
	ev.wait(t, func(e any) bool { d, ok := e.(wire.TurnDonePayload); return ok && d.SessionID == s.ID })
	d, err := w.Sessions.Get(ctx, s.ID, 0)
	if err != nil || len(d.Messages) == 0 {
		t.Fatalf("GetSession: %v", err)
	}
	a, err := w.Sessions.Fork(ctx, s.ID, d.Messages[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Sessions.Fork(ctx, s.ID, d.Messages[0].ID)
	if err != nil || a.Worktree != s.Worktree {
		t.Fatalf("fork %+v (%v): want it in %s", a, err, s.Worktree)
	}
	if err := w.Sessions.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Worktree); err != nil {
		t.Fatalf("deleting a fork removed the worktree the others work in: %v", err)
	}
	if err := w.Worktrees.Discard(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	list, _ := w.Worktrees.Sessions(ctx, p.ID)
	for _, x := range list {
		if !x.WorktreeDiscarded {
			t.Errorf("session %d still works in the discarded worktree", x.ID)
		}
	}
	if len(list) != 2 {
		t.Fatalf("sessions %+v", list)
	}
}
