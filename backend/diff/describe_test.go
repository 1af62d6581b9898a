package diff

import (
	"testing"

	"pilot/backend/wire"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	hs := []wire.Hunk{
		{OldStart: 3, OldLines: 5},
		{OldStart: 40, OldLines: 13},
		{OldStart: 80, OldLines: 0},
	}
	cases := []struct {
		hunks    []wire.Hunk
		approved []bool
		feedback string
		want     string
	}{
		{hs, []bool{true, false, true}, "use a map", "applied hunks 1 and 3 of 3; rejected hunk 2 (lines 40-52): use a map"},
		{hs, []bool{true, true, true}, "", "applied all 3 hunks"},
		{hs, []bool{false, false, false}, " too much ", "rejected all 3 hunks: too much"},
		{hs, []bool{false, true, false}, "", "applied hunk 2 of 3; rejected hunks 1 (lines 3-7) and 3 (after line 80)"},
		{hs[:1], []bool{true}, "", "applied hunk 1 of 1"},
		{hs[:1], []bool{false}, "no", "rejected hunk 1 of 1 (lines 3-7): no"},
		{nil, nil, "", "nothing to change: the proposed text equals the file"},
		{[]wire.Hunk{{OldStart: 0, OldLines: 0}, {OldStart: 9, OldLines: 1}}, []bool{false, false}, "", "rejected all 2 hunks"},
	}
	for _, c := range cases {
		if got := Describe(c.hunks, c.approved, c.feedback); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if got := Lines(wire.Hunk{OldStart: 0}); got != "at the start of the file" {
		t.Error(got)
	}
	if got := Lines(wire.Hunk{OldStart: 9, OldLines: 1}); got != "line 9" {
		t.Error(got)
	}
}
