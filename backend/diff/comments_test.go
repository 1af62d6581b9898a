package diff

import (
	"testing"

	"pilot/backend/wire"
)

func TestAnchorAndReasons(t *testing.T) {
	t.Parallel()
	hunks := []wire.Hunk{
		{Lines: []wire.DiffLine{{Kind: wire.LineContext, OldNo: 1, NewNo: 1}, {Kind: wire.LineDel, OldNo: 2}, {Kind: wire.LineAdd, NewNo: 2}}},
		{Lines: []wire.DiffLine{{Kind: wire.LineDel, OldNo: 9}, {Kind: wire.LineAdd, NewNo: 9}, {Kind: wire.LineAdd, NewNo: 10}, {Kind: wire.LineContext, OldNo: 10, NewNo: 11}}},
	}
	c := func(line, end int, text string) wire.Comment {
		return wire.Comment{Path: "a.go", Line: line, EndLine: end, LineText: "  x := 1 ", Text: text}
	}
	tests := []struct {
		name     string
		approved []bool
		comments []wire.Comment
		want     string
	}{
		{"a comment on an approved hunk says nothing", []bool{true, true}, []wire.Comment{c(2, 0, "fine")}, ""},
		{"a comment on a rejected hunk's added line", []bool{true, false}, []wire.Comment{c(10, 0, "why")},
			"\nThe user's comment on a.go:10 (“x := 1”), rejected hunk 2: why"},
		{"a range that reaches into the hunk", []bool{false, true}, []wire.Comment{c(2, 5, "too much")},
			"\nThe user's comment on a.go:2-5 (“x := 1”), rejected hunk 1: too much"},
		{"a comment between hunks, an empty one, another file's", []bool{false, false},
			[]wire.Comment{c(5, 0, "between"), c(9, 0, "  "), {Path: "b.go", Line: 9, Text: "other"}}, ""},
		{"undecided (missing) counts as rejected", nil, []wire.Comment{c(1, 0, "no")},
			"\nThe user's comment on a.go:1 (“x := 1”), rejected hunk 1: no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Reasons("a.go", hunks, tt.approved, tt.comments); got != tt.want {
				t.Errorf("Reasons = %q, want %q", got, tt.want)
			}
		})
	}
	if got := Anchor(wire.Comment{Path: "p/q.go", Line: 3}); got != "p/q.go:3" {
		t.Errorf("Anchor without text = %q", got)
	}
}
