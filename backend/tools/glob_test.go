package tools

import (
	"path"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// FuzzGlobNameOnly checks that matching a "**/name" pattern on the file's
// name alone, as glob does when nameOnly allows it, agrees with
// doublestar on the whole path.
func FuzzGlobNameOnly(f *testing.F) {
	for _, s := range [][2]string{
		{"**/*.go", "a/b/c.go"}, {"**/*.{s,h}", "x.h"}, {"**/a?b", "a/b"}, {"**/a*b", "a/x/b"},
		{"**/a[^x]b", "a/b"}, {"**/{a,b/c}", "b/c"}, {"**/**/x", "x"}, {"**/a\\*", "q/a*"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		name, ok := nameOnly(pattern)
		if !ok || !doublestar.ValidatePattern(pattern) || p == "" || path.Clean(p) != p || p[0] == '/' || p == "." || p == ".." {
			t.Skip()
		}
		if whole, alone := doublestar.MatchUnvalidated(pattern, p), doublestar.MatchUnvalidated(name, path.Base(p)); whole != alone {
			t.Errorf("%q on %q: %v on the path, %v on the name", pattern, p, whole, alone)
		}
	})
}
