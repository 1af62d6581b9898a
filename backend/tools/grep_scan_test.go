package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// linesMatching is what grep reports for data, by definition: the numbers
// of the lines the regexp matches (match) on their own. The empty piece after a
// final newline counts too when the line before it did not match (grep's
// search reaches it only then).
func linesMatching(match func([]byte) bool, data []byte) []int {
	lines := strings.Split(string(data), "\n")
	var hits []int
	for i, l := range lines {
		if i == len(lines)-1 && len(l) == 0 && (len(data) == 0 || len(hits) > 0 && hits[len(hits)-1] == i) {
			break
		}
		if match([]byte(l)) {
			hits = append(hits, i+1)
		}
	}
	return hits
}

// scanFile runs the searcher on data in a file with the given read and
// regexp window sizes (0: the defaults) and returns the lines it found.
func scanFile(t *testing.T, pattern string, data []byte, chunk, window int) ([]int, bool) {
	t.Helper()
	re, msg := compileGrep(pattern)
	if re == nil {
		t.Skip(msg)
	}
	s := newSearcher(pattern, re)
	if chunk > 0 {
		s.chunk = chunk
	}
	if window > 0 {
		s.window = window
	}
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, s.chunk)
	var res grepFile
	ok := s.read(int(f.Fd()), &buf, &res)
	var got []int
	for _, m := range res.matches {
		got = append(got, m.line)
	}
	if len(got) != min(res.count, maxGrepMatches) {
		t.Fatalf("%d lines kept for %d matches", len(got), res.count)
	}
	return got, ok
}

// The searcher reads a file in chunks and gives the regexp windows of it;
// wherever they are cut, it finds the lines the regexp matches alone.
func TestGrepScanCuts(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300)
	tests := []struct {
		name, pattern, data string
	}{
		{"literal across chunk ends", "needle", "a needle\nno\n" + long + "needle\nend needle"},
		{"alternation", "TODO|FIXME", "// TODO one\nplain\n// FIXME two\n" + long + "\nFIXME TODO\n"},
		{"alternation of words", `\b(?:TODO|FIXME)\b`, "TODOS\nTODO\nxFIXME\nFIXME:\n"},
		{"regexp without literal", `\d{4}-\d{2}`, "2024-01\n" + long + "\n12-1234\n1999-12-31\n"},
		{"literal after a fixed length", `\d{4}-\d{2}\b`, "ab-cd 2024-05\n1-2024-051\n-2024-05\n99-12 1234-56x 1234-56\n"},
		{"literal after classes and groups", `(?:[a-c]x){2}=(y)`, "axbx=y\n=y axcx=y\nzz=y\n"},
		{"regexp over lines", `a\s+b`, "a\nb\na b\na\n\nb\n"},
		{"empty lines", `^$`, "x\n\ny\n\n"},
		{"empty match at the end", `^$`, "x\ny\n"},
		{"line end", `o$`, "foo\nbar\r\nzoo"},
		{"case folded", `(?i)deprecated`, "DEPRECATED\nDeprecated: " + long + "\ndeprecate\n"},
		{"kelvin folds k", `(?i)kind`, "\u212Aind\nKIND\n"},
		{"word boundary at a cut", `\bend\b`, strings.Repeat("end\nx\n", 20)},
		{"a line longer than a chunk", "tail", long + "tail\n" + long + "\ntail"},
		{"many matches", "a", strings.Repeat("a\nb\n", 40)},
		{"no final newline", "z", "a\nz"},
		{"empty file", "x", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			re, _ := compileGrep(tc.pattern)
			want := linesMatching(re.Match, []byte(tc.data))
			if len(want) > maxGrepMatches {
				want = want[:maxGrepMatches]
			}
			for _, sizes := range [][2]int{{0, 0}, {16, 8}, {32, 1}, {64, 20}, {7, 3}, {4, 1}, {2, 1}} {
				got, ok := scanFile(t, tc.pattern, []byte(tc.data), sizes[0], sizes[1])
				if !ok || !slices.Equal(got, want) {
					t.Errorf("chunk %d, window %d: lines %v (ok %v), want %v", sizes[0], sizes[1], got, ok, want)
				}
			}
		})
	}
}

// FuzzGrepScan checks the chunked search against the definition on
// arbitrary text and patterns (\A and \z, which depend on where the text
// ends, are searched on whole files and left out).
func FuzzGrepScan(f *testing.F) {
	f.Add("a needle\nneedle\n", "needle", uint8(5), uint8(3))
	f.Add("TODO\nx\nFIXME\n", "TODO|FIXME", uint8(4), uint8(1))
	f.Add("x\n\ny\n", "^$", uint8(2), uint8(2))
	f.Add("a\nb\na b\n", `a\s+b`, uint8(3), uint8(1))
	f.Add("Kind\nKIND\n", `(?i)kind`, uint8(6), uint8(2))
	f.Add("ab-cd 2024-05\n-1-\n", `\d{4}-\d{2}\b`, uint8(9), uint8(2))
	f.Fuzz(func(t *testing.T, data, pattern string, chunk, window uint8) {
		if strings.Contains(pattern, `\A`) || strings.Contains(pattern, `\z`) || strings.ContainsRune(data, 0) {
			t.Skip()
		}
		re, _ := compileGrep(pattern)
		if re == nil {
			t.Skip()
		}
		want := linesMatching(re.Match, []byte(data))
		if len(want) > maxGrepMatches {
			want = want[:maxGrepMatches]
		}
		got, ok := scanFile(t, pattern, []byte(data), int(chunk%64)+2, int(window%32)+1)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("lines %v (ok %v), want %v", got, ok, want)
		}
	})
}
