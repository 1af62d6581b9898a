package diff

import (
	"strings"
	"testing"
)

func TestGist(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ old, new, want string }{
		{"alpha\nbeta\ngamma\n", "alpha\nBETA\ngamma\n", "beta → BETA"},
		{"alpha\nbeta\n", "ALPHA\nBETA\n", "alpha → ALPHA"},
		{"a\n", "a\nb\n", "+ b"},
		{"a\n\tb  \n", "a\n", "− b"},
		{"same\n", "same\n", ""},
		{"x\n", strings.Repeat("y", 100) + "\n", "x → " + strings.Repeat("y", 39) + "…"},
	} {
		if got := Gist(c.old, c.new); got != c.want {
			t.Errorf("Gist(%q, %q) = %q, want %q", c.old, c.new, got, c.want)
		}
	}
}

func TestSizeChange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		existed       bool
		before, after int
		want          string
	}{
		{false, 0, 327, "327 bytes"},
		{true, 20, 20, "same size"},
		{true, 327, 301, "327 → 301 bytes"},
	} {
		if got := SizeChange(c.existed, c.before, c.after); got != c.want {
			t.Errorf("SizeChange(%v, %d, %d) = %q, want %q", c.existed, c.before, c.after, got, c.want)
		}
	}
}
