package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repo makes a repository with one commit in a temporary folder.
func repo(t *testing.T, g Git) string {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start"}} {
		if _, err := g.Run(ctx, dir, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"fix-login", true}, {"a", true}, {"v1.2_x", true},
		{"", false}, {"-x", false}, {".x", false}, {"a/b", false}, {"a b", false}, {"a..b", false},
		{"a.", false}, {"a.lock", false}, {"é", false}, {strings.Repeat("a", 65), false}, {"a~1", false},
	} {
		err := CheckName(c.name)
		if (err == nil) != c.ok {
			t.Errorf("CheckName(%q) = %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), c.name) && c.name != "" && len(c.name) < 65 {
			t.Errorf("CheckName(%q) = %q does not name it", c.name, err)
		}
	}
}

func TestWorktreeAddListRemove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := repo(t, g)
	head, err := g.Head(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wts", "1", "fix")
	if err := g.AddWorktree(ctx, dir, wt, "pilot/fix", head); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "a.txt")); err != nil || string(b) != "a\n" {
		t.Fatalf("the worktree's a.txt = %q, %v", b, err)
	}
	list, err := g.Run(ctx, dir, "worktree", "list", "--porcelain")
	if err != nil || !strings.Contains(list, "worktree "+wt+"\nHEAD "+head+"\nbranch refs/heads/pilot/fix") {
		t.Fatalf("git worktree list = %q, %v", list, err)
	}
	if ok, err := g.BranchExists(ctx, dir, "pilot/fix"); !ok || err != nil {
		t.Fatalf("BranchExists = %v, %v", ok, err)
	}
	if err := g.AddWorktree(ctx, dir, wt+"2", "pilot/fix", head); err == nil {
		t.Fatal("a second worktree on a taken branch was made")
	}
	// Uncommitted work in it goes with it.
	os.WriteFile(filepath.Join(wt, "new.txt"), []byte("x"), 0o644)
	if err := g.RemoveWorktree(ctx, dir, wt); err != nil {
		t.Fatal(err)
	}
	if err := g.DeleteBranch(ctx, dir, "pilot/fix"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Fatalf("the worktree folder is still there: %v", err)
	}
	list, _ = g.Run(ctx, dir, "worktree", "list", "--porcelain")
	if ok, _ := g.BranchExists(ctx, dir, "pilot/fix"); ok || strings.Count(list, "worktree ") != 1 {
		t.Fatalf("after removal: worktrees %q, branch exists %v", list, ok)
	}
	// Both are idempotent.
	if err := g.RemoveWorktree(ctx, dir, wt); err != nil {
		t.Fatal(err)
	}
	if err := g.DeleteBranch(ctx, dir, "pilot/fix"); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveWorktreeGoneByHand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, _ := Find(ctx)
	dir := repo(t, g)
	head, _ := g.Head(ctx, dir)
	wt := filepath.Join(t.TempDir(), "w")
	if err := g.AddWorktree(ctx, dir, wt, "pilot/w", head); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(wt)
	if err := g.RemoveWorktree(ctx, dir, wt); err != nil {
		t.Fatal(err)
	}
	if list, _ := g.Run(ctx, dir, "worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 1 {
		t.Fatalf("a worktree removed by hand is still listed: %q", list)
	}
}

func TestHeadWithoutCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, _ := Find(ctx)
	dir := t.TempDir()
	g.Run(ctx, dir, "init", "-q")
	if _, err := g.Head(ctx, dir); err == nil || !strings.Contains(err.Error(), "first commit") {
		t.Fatalf("Head of an empty repository: %v", err)
	}
}
