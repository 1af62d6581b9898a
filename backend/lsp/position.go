package lsp

import (
	"strings"
	"unicode/utf8"
)

// lineOf returns line n (0-based) of text without its line ending, and
// false when text has fewer lines.
func lineOf(text string, n int) (string, bool) {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r"), true
}

// column turns an LSP character offset on line (counted in UTF-16 code
// units, as LSP counts by default) into a 1-based column counted in
// characters (code points), as an editor shows it. An offset inside a
// surrogate pair counts as its character; one past the end of the line
// is the column after its last character. A byte that is not UTF-8 is
// one character (the server saw it as U+FFFD, one code unit).
func column(line string, utf16 int) int {
	col, units := 1, 0
	for len(line) > 0 && units < utf16 {
		r, size := utf8.DecodeRuneInString(line)
		line = line[size:]
		units += utf16Len(r)
		if units > utf16 { // the offset falls inside this character
			return col
		}
		col++
	}
	return col
}

// utf16Len is how many UTF-16 code units r takes.
func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
