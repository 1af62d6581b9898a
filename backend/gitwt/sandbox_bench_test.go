package gitwt

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkSandboxDirs is what a worktree session's pod start adds for
// git: finding git, asking it for the worktree's folders, and making
// config.worktree exist.
func BenchmarkSandboxDirs(b *testing.B) {
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start"}} {
		if _, err := g.Run(ctx, dir, args...); err != nil {
			b.Fatal(err)
		}
	}
	head, err := g.Head(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	wt := filepath.Join(b.TempDir(), "x")
	if err := g.AddWorktree(ctx, dir, wt, "pilot/x", head); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g, err := Find(ctx)
		if err != nil {
			b.Fatal(err)
		}
		d, err := g.Dirs(ctx, wt)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.PrepareSandbox(); err != nil {
			b.Fatal(err)
		}
		d.SandboxPaths()
	}
}
