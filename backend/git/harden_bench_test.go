package git

import (
	"context"
	"testing"
	"time"
)

// BenchmarkHarden is what hardening adds to each operation: reading the
// configuration with its scopes (at), against one plain `git rev-parse
// HEAD`, the cheapest command Pilot runs, in the same repository; and
// what it adds when the options are kept from a read before (the files
// they came from stamped again), with a clock ahead by more than racy so
// that the new repository's files are not taken for racy.
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
		g := g
		g.cache = newConfigCache(time.Now)
		key := cacheKey(g.Path, dir, allowed(dir, nil))
		for b.Loop() {
			g.cache.forget(key)
			if _, err := g.at(ctx, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("configuration read, kept", func(b *testing.B) {
		g := g
		g.cache = newConfigCache(func() time.Time { return time.Now().Add(racy + time.Second) })
		if _, err := g.at(ctx, dir); err != nil {
			b.Fatal(err)
		}
		if _, hit, _ := g.cache.lookup(cacheKey(g.Path, dir, allowed(dir, nil))); !hit {
			b.Fatal("the options were not kept")
		}
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
