package lsp

import (
	"testing"
	"unicode/utf8"
)

func TestColumn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line       string
		utf16, col int
	}{
		{"abc", 0, 1},
		{"abc", 2, 3},
		{"abc", 3, 4},
		{"abc", 9, 4},     // past the end
		{"héllo x", 6, 7}, // é is one code unit
		{"😀x", 2, 2},      // 😀 is two code units
		{"😀x", 1, 1},      // inside the pair: the emoji's column
		{"a😀😀b", 5, 4},    // b
		{"\xffz", 1, 2},   // a byte that is not UTF-8 is one character
		{"日本語 y", 4, 5},   // y
		{"", 0, 1},
	} {
		if got := column(c.line, c.utf16); got != c.col {
			t.Errorf("column(%q, %d) = %d, want %d", c.line, c.utf16, got, c.col)
		}
	}
}

func TestLineOf(t *testing.T) {
	t.Parallel()
	text := "one\r\ntwo\nthree"
	for n, want := range []string{"one", "two", "three"} {
		if got, ok := lineOf(text, n); !ok || got != want {
			t.Errorf("lineOf(%d) = %q, %v; want %q", n, got, ok, want)
		}
	}
	if _, ok := lineOf(text, 3); ok {
		t.Error("lineOf past the last line is not ok")
	}
}

// FuzzColumn: the UTF-16 offset at which the i-th character starts maps
// to column i+1, and columns never go back as the offset grows.
func FuzzColumn(f *testing.F) {
	for _, s := range []string{"abc", "héllo", "a😀b", "日本語", "\xff\xfe", ""} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, line string, off int) {
		if off < 0 || off > 1<<16 {
			return
		}
		units, i := 0, 0
		for rest := line; len(rest) > 0; i++ {
			if got := column(line, units); got != i+1 {
				t.Fatalf("column(%q, %d) = %d, want %d (character %d starts there)", line, units, got, i+1, i)
			}
			r, size := utf8.DecodeRuneInString(rest)
			rest = rest[size:]
			units += utf16Len(r)
		}
		if got := column(line, units); got != i+1 {
			t.Fatalf("column(%q, end %d) = %d, want %d", line, units, got, i+1)
		}
		a, b := column(line, off), column(line, off+1)
		if a > b || a < 1 || b > i+1 {
			t.Fatalf("column(%q, %d) = %d, column(.., %d) = %d: out of order or range", line, off, a, off+1, b)
		}
	})
}
