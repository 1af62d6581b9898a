package gitwt

import (
	"context"
	"testing"
)

// BenchmarkHarden is what hardening adds to each operation: reading the
// configuration with its scopes (at), against one plain `git rev-parse
// HEAD`, the cheapest command Pilot runs, in the same repository.
func BenchmarkHarden(b *testing.B) {
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
	b.Run("configuration read", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.at(ctx, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("git rev-parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.run(ctx, dir, nil, nil, fixedArgs, "rev-parse", "HEAD"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
