package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPodPaths is what a session's pod start adds for git: finding
// git, reading the repository's configuration (hardening), asking git for
// its folders and listing the index's gitlinks, in a repository of 10,000
// files (100,000 with PILOT_BENCH_BIG=1).
func BenchmarkPodPaths(b *testing.B) {
	ctx := context.Background()
	g, err := Find(ctx)
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	n := 10_000
	if os.Getenv("PILOT_BENCH_BIG") != "" {
		n = 100_000
	}
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("d%03d", i%500))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.txt", i)), []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start"}} {
		if _, err := g.Run(ctx, dir, args...); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		g, err := Find(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.PodPaths(ctx, dir); err != nil {
			b.Fatal(err)
		}
	}
}
