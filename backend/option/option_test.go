package option

import (
	"testing"
	"time"
)

func TestOr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ v, def, want time.Duration }{
		{0, 5, 5},
		{-1, 5, 5},
		{1, 5, 1},
		{7, 5, 7},
	} {
		if got := Or(c.v, c.def); got != c.want {
			t.Errorf("Or(%v, %v) = %v, want %v", c.v, c.def, got, c.want)
		}
	}
}
