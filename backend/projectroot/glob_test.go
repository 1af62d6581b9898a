package projectroot

import (
	"path"
	"strings"
	"testing"
)

var (
	globPats  = []string{"", "*", "**", "***", "*.log", "a*", "*a", "*a*", "a*b", "a*b*c", "*.tar.*", "ab", "a?c", "[a-c]*", "[^x]", "\\*", "a\\", "[", "*[", "x**y", "**.go", ".*", "test_*_gen.go"}
	globNames = []string{"", "a", "b", "ab", "abc", "aXbYc", "acb", "x.log", ".log", "log", "a.tar.gz", "tar", "*", "xy", "xzy", "main.go", ".go", ".env", "test_a_gen.go", "test__gen.go", "test_gen.go", "aa", "ba"}
)

// TestGlobMatchesPathMatch checks every compiled kind against path.Match.
func TestGlobMatchesPathMatch(t *testing.T) {
	t.Parallel()
	for _, p := range globPats {
		g := compileGlob(p)
		for _, n := range globNames {
			ok, err := path.Match(p, n)
			if want := err == nil && ok; g.match(n) != want {
				t.Errorf("glob %q (kind %d) on %q = %v, path.Match says %v", p, g.kind, n, !want, want)
			}
		}
	}
}

func FuzzGlob(f *testing.F) {
	for i, p := range globPats {
		f.Add(p, globNames[i%len(globNames)])
	}
	f.Fuzz(func(t *testing.T, p, n string) {
		if strings.Contains(p, "/") || strings.Contains(n, "/") {
			return // segments and names never hold one
		}
		ok, err := path.Match(p, n)
		if want := err == nil && ok; compileGlob(p).match(n) != want {
			t.Errorf("glob %q on %q = %v, path.Match says %v", p, n, !want, want)
		}
	})
}

func TestMatchSegs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pat, p string
		want   bool
	}{
		{"build", "build", true},
		{"build", "src/build", false},
		{"src/*.go", "src/a.go", true},
		{"src/*.go", "src/sub/a.go", false},
		{"docs/**/*.tmp", "docs/c.tmp", true},
		{"docs/**/*.tmp", "docs/a/b/c.tmp", true},
		{"docs/**/*.tmp", "doc/a/c.tmp", false},
		{"**/node_modules", "node_modules", true},
		{"**/node_modules", "a/b/node_modules", true},
		{"**/node_modules", "a/node_modules/x", false},
		{"out/**", "out", false},
		{"out/**", "out/x", true},
		{"out/**", "out/x/y", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/c", false},
		{"**", "x", true},
		{"a/b", "a", false},
		{"a", "a/b", false},
	}
	for _, tt := range tests {
		var pat []glob
		for _, s := range strings.Split(tt.pat, "/") {
			pat = append(pat, compileGlob(s))
		}
		if got := matchSegs(pat, tt.p); got != tt.want {
			t.Errorf("matchSegs(%q, %q) = %v, want %v", tt.pat, tt.p, got, tt.want)
		}
	}
}
