package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pilot/backend/wire"
)

func numberedLines(n int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = fmt.Sprintf("line %d\n", i+1)
	}
	return l
}

func TestHunksGroupingAndNumbers(t *testing.T) {
	t.Parallel()
	old := numberedLines(60)
	nw := append([]string(nil), old...)
	nw[4] = "changed 5\n"            // hunk 1
	nw[6] = "changed 7\n"            // same hunk (gap 1)
	nw[39] = "changed 40\n"          // hunk 2
	nw = append(nw[:55], nw[56:]...) // delete line 56: hunk 3
	d := Compute(strings.Join(old, ""), strings.Join(nw, ""))
	hs := d.Hunks()
	if len(hs) != 3 {
		t.Fatalf("want 3 hunks, got %d: %+v", len(hs), hs)
	}
	h := hs[0]
	if h.Index != 0 || h.OldStart != 2 || h.OldLines != 9 || h.NewStart != 2 || h.NewLines != 9 {
		t.Errorf("hunk 1 header: %+v", h)
	}
	if h.Lines[0].Kind != "context" || h.Lines[0].Text != "line 2" || h.Lines[0].OldNo != 2 || h.Lines[0].NewNo != 2 {
		t.Errorf("first line: %+v", h.Lines[0])
	}
	var dels, adds int
	for _, l := range h.Lines {
		switch l.Kind {
		case "del":
			dels++
			if l.NewNo != 0 {
				t.Errorf("del line with new number: %+v", l)
			}
		case "add":
			adds++
			if l.OldNo != 0 {
				t.Errorf("add line with old number: %+v", l)
			}
		}
	}
	if dels != 2 || adds != 2 {
		t.Errorf("dels %d adds %d", dels, adds)
	}
	if got := Lines(hs[1]); got != "lines 37-43" {
		t.Errorf("hunk 2 lines: %s", got)
	}
	if hs[2].OldLines != 7 || hs[2].NewLines != 6 {
		t.Errorf("hunk 3: %+v", hs[2])
	}
}

func TestApplySubsets(t *testing.T) {
	t.Parallel()
	old := strings.Join(numberedLines(30), "")
	nw := strings.Replace(old, "line 2\n", "two\n", 1)
	nw = strings.Replace(nw, "line 15\n", "fifteen\nand a half\n", 1)
	nw = strings.Replace(nw, "line 29\n", "", 1)
	d := Compute(old, nw)
	if d.Len() != 3 {
		t.Fatalf("hunks: %d", d.Len())
	}
	cases := []struct {
		approved []bool
		want     string
	}{
		{[]bool{true, true, true}, nw},
		{[]bool{false, false, false}, old},
		{[]bool{true, false, true}, strings.Replace(strings.Replace(old, "line 2\n", "two\n", 1), "line 29\n", "", 1)},
		{[]bool{false, true, false}, strings.Replace(old, "line 15\n", "fifteen\nand a half\n", 1)},
	}
	for _, c := range cases {
		got, err := d.Apply(c.approved)
		if err != nil || got != c.want {
			t.Errorf("%v: err %v\n%q\nwant\n%q", c.approved, err, got, c.want)
		}
	}
	if _, err := d.Apply([]bool{true}); err != ErrHunkCount {
		t.Errorf("short decision: %v", err)
	}
}

func TestEdgeTexts(t *testing.T) {
	t.Parallel()
	cases := []struct{ old, new string }{
		{"", "new file\n"},
		{"gone\n", ""},
		{"no newline", "no newline\n"},
		{"a\r\nb\r\n", "a\r\nB\r\n"},
		{"same\n", "same\n"},
		{"x\ny", "x\nz"},
	}
	for _, c := range cases {
		d := Compute(c.old, c.new)
		all := make([]bool, d.Len())
		for i := range all {
			all[i] = true
		}
		if got, _ := d.Apply(all); got != c.new {
			t.Errorf("%q -> %q: got %q", c.old, c.new, got)
		}
		if got, _ := d.Apply(make([]bool, d.Len())); got != c.old {
			t.Errorf("%q rejected: got %q", c.old, got)
		}
	}
	if hs := Compute("", "a\nb\n").Hunks(); hs[0].OldStart != 0 || hs[0].NewStart != 1 || hs[0].Lines[1].Text != "b" {
		t.Errorf("new file hunk: %+v", hs[0])
	}
	if hs := Compute("a\r\nb\r\n", "a\r\nc\r\n").Hunks(); hs[0].Lines[1].Text != "b" {
		t.Errorf("CR kept in display: %+v", hs[0].Lines)
	}
}

// TestRandomSubsets checks that any subset of hunks applies to a text that
// contains exactly the approved changes: approving all gives the new text,
// none gives the old, and approving a set then the rest composes.
func TestRandomSubsets(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		old := numberedLines(r.IntN(80))
		var nw []string
		for _, l := range old {
			switch r.IntN(10) {
			case 0:
			case 1:
				nw = append(nw, "new "+l)
			case 2:
				nw = append(nw, l, fmt.Sprintf("inserted %d\n", r.IntN(1000)))
			default:
				nw = append(nw, l)
			}
		}
		o, n := strings.Join(old, ""), strings.Join(nw, "")
		d := Compute(o, n)
		all := make([]bool, d.Len())
		sub := make([]bool, d.Len())
		for i := range all {
			all[i] = true
			sub[i] = r.IntN(2) == 0
		}
		if got, _ := d.Apply(all); got != n {
			t.Fatalf("all: %q != %q", got, n)
		}
		mid, _ := d.Apply(sub)
		// Applying the rest of the hunks on top of the partial result gives
		// the new text: the partial result holds exactly the chosen hunks.
		if got, _ := Compute(mid, n).Apply(trueN(Compute(mid, n).Len())); got != n {
			t.Fatalf("compose")
		}
		for i, h := range d.Hunks() {
			if h.Index != i || len(h.Lines) != h.OldLines+h.NewLines-contextCount(h.Lines) {
				t.Fatalf("hunk %d inconsistent: %+v", i, h)
			}
		}
	}
}

func trueN(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

func contextCount(ls []wire.DiffLine) int {
	n := 0
	for _, l := range ls {
		if l.Kind == "context" {
			n++
		}
	}
	return n
}
