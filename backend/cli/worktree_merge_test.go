package cli

import (
	"fmt"
	"testing"

	"pilot/backend/wire"
)

func TestParseWorktreeMergeArgs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string // the parsed args, or "error"
	}{
		{[]string{"7"}, "7 [] false false"},
		{[]string{"7", "--json"}, "7 [] false true"},
		{[]string{"7", "--hunks", "all"}, "7 [] false false"},
		{[]string{"--force", "7", "--hunks", "1,3"}, "7 [1 3] true false"},
		{[]string{"7", "--hunks=2"}, "7 [2] false false"},
		{[]string{"7", "--hunks", "0"}, "error"},
		{[]string{"7", "--hunks", "1,,2"}, "error"},
		{[]string{"7", "8"}, "error"},
		{[]string{}, "error"},
		{[]string{"seven"}, "error"},
		{[]string{"7", "--frob"}, "error"},
	} {
		a, err := parseWorktreeMergeArgs(c.args)
		got := fmt.Sprintf("%d %v %v %v", a.session, a.hunks, a.force, a.json)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("%v: %s (%v), want %s", c.args, got, err, c.want)
		}
	}
}

func TestBranchDecisions(t *testing.T) {
	t.Parallel()
	v := wire.BranchView{Files: []wire.FileChange{
		{Path: "a", Hunks: []wire.Hunk{{Index: 1}, {Index: 2}}},
		{Path: "bin", Hunks: []wire.Hunk{{Index: 3, Note: "The branch adds the binary file bin (5 bytes)."}}},
		{Path: "b", Hunks: []wire.Hunk{{Index: 4}}},
	}}
	for _, c := range []struct {
		hunks []int
		want  string
	}{
		{nil, "[{a [true true] <nil>} {bin [true] <nil>} {b [true] <nil>}] 4"},
		{[]int{2}, "[{a [false true] <nil>}] 4"},
		{[]int{4, 1}, "[{a [true false] <nil>} {b [true] <nil>}] 4"},
	} {
		m, total := branchDecisions(v, c.hunks)
		if got := fmt.Sprintf("%v %d", m.Files, total); got != c.want {
			t.Errorf("hunks %v: %s, want %s", c.hunks, got, c.want)
		}
	}
}
