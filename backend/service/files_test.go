package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFindFilesKeepsTheBest checks that FindFiles returns the first limit
// paths of all matches sorted by score, then path, however many match.
func TestFindFilesKeepsTheBest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var all []string
	for i := range 400 {
		rel := fmt.Sprintf("%s/%s/file_%s%d.go", []string{"src", "lib", "a/b"}[i%3], []string{"alpha", "beta", "gamma", "delta"}[i%4], []string{"ab", "ba", "xy"}[i%3], i)
		all = append(all, rel)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorkspace(t, nil)
	ctx := context.Background()
	p, err := w.Projects.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ab", "a", "Beta", "gfab1", ""} {
		var want []fileMatch
		for _, rel := range all {
			if s, ok := fuzzyScore(rel, strings.ToLower(q)); ok {
				want = append(want, fileMatch{rel, s})
			}
		}
		slices.SortFunc(want, func(a, b fileMatch) int {
			if a.before(b) {
				return -1
			}
			return 1
		})
		for _, limit := range []int{1, 7, 50, 1000} {
			got, err := w.Files.Find(ctx, p.ID, 0, q, limit)
			if err != nil {
				t.Fatal(err)
			}
			var wantPaths []string
			for _, m := range want[:min(limit, len(want))] {
				wantPaths = append(wantPaths, m.path)
			}
			if !slices.Equal(got, wantPaths) {
				t.Errorf("FindFiles(%q, %d) = %q, want %q", q, limit, got, wantPaths)
			}
		}
	}
}
