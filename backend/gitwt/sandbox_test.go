package gitwt

import (
	"context"
	"os"
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
	if err := d.PrepareSandbox(); err != nil {
		t.Fatal(err)
	}
	if err := d.PrepareSandbox(); err != nil { // again: it exists
		t.Fatal(err)
	}
	ro, rw := d.SandboxPaths()
	for _, p := range ro {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("read-only path %s: %v", p, err)
		}
	}
	if got := strings.Join(ro, " "); len(rw) != 1 || rw[0] != want.Admin || !strings.HasPrefix(got, want.Common+" "+want.Link+" ") ||
		!strings.HasSuffix(got, "fix/gitdir "+want.Admin+"/commondir "+want.Admin+"/HEAD "+want.Admin+"/config.worktree") {
		t.Fatalf("SandboxPaths = %q, %q", ro, rw)
	}
	// An empty config.worktree is no setting: git still works there.
	if _, err := g.Run(ctx, wt, "status", "--short"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Dirs(ctx, dir); err == nil || !strings.Contains(err.Error(), "not a linked worktree") {
		t.Fatalf("Dirs of the main tree: %v", err)
	}
}
