package gitwt

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Dirs finds a linked worktree's common and own folders as git does, and
// refuses the main work tree (it has no folder of its own to write).
func TestDirs(t *testing.T) {
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
	wt := filepath.Join(t.TempDir(), "fix")
	if err := g.AddWorktree(ctx, dir, wt, "pilot/fix", head); err != nil {
		t.Fatal(err)
	}
	d, err := g.Dirs(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	want := WorktreeDirs{Common: filepath.Join(real, ".git"), Admin: filepath.Join(real, ".git", "worktrees", "fix"), Link: filepath.Join(wt, ".git")}
	if d != want {
		t.Fatalf("Dirs = %+v, want %+v", d, want)
	}
	ro, rw := d.SandboxPaths()
	if len(rw) != 1 || rw[0] != want.Admin || ro[0] != want.Common || !strings.HasSuffix(ro[2], "fix/gitdir") {
		t.Fatalf("SandboxPaths = %q, %q", ro, rw)
	}
	if _, err := g.Dirs(ctx, dir); err == nil || !strings.Contains(err.Error(), "not a linked worktree") {
		t.Fatalf("Dirs of the main tree: %v", err)
	}
}
