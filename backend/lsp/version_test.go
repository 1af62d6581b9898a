package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A server whose --version fails is asked again only after versionRetry;
// one that answers is asked once.
func TestVersionCacheKeepsFailureAWhile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
		want         string
		asks         []int // asks counted after each get: first, again at once, after versionRetry
	}{
		{"fails", "exit 3", "", []int{1, 1, 2}},
		{"answers", "echo 'srv 1.2.3'; echo more", "srv 1.2.3", []int{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			count := filepath.Join(dir, "count")
			exe := filepath.Join(dir, "srv")
			script := "#!/bin/sh\necho x >> '" + count + "'\n" + tc.script + "\n"
			if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			asks := func() int {
				b, _ := os.ReadFile(count)
				return strings.Count(string(b), "x")
			}
			var mu sync.Mutex
			clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
			v := versionCache{now: func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }}
			steps := []time.Duration{0, versionRetry / 2, versionRetry}
			for i, step := range steps {
				mu.Lock()
				clock = clock.Add(step)
				mu.Unlock()
				if got := v.get(exe, nil, os.Environ(), dir); got != tc.want {
					t.Fatalf("get %d = %q, want %q", i, got, tc.want)
				}
				if n := asks(); n != tc.asks[i] {
					t.Fatalf("after get %d the server was asked %d times, want %d", i, n, tc.asks[i])
				}
			}
		})
	}
}
