package tools

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// anchoredCheck checks a candidate line of a pattern whose required literal
// follows parts of a fixed length in bytes (`\d{4}-\d{2}`: 4 bytes before
// "-"): a match starts that many bytes before an occurrence of the
// literal, so the pattern is tried anchored there, instead of searched for
// along the whole line.
type anchoredCheck struct {
	re    *regexp.Regexp // \A(?:pattern)
	start int            // bytes from a match's start to the literal
}

// newAnchoredCheck returns the check for pattern (tree parsed from it) and
// its required literal lit, or nil when the literal does not follow parts
// of a fixed length.
func newAnchoredCheck(pattern string, tree *syntax.Regexp, lit []byte) *anchoredCheck {
	for tree.Op == syntax.OpCapture {
		tree = tree.Sub[0]
	}
	if tree.Op != syntax.OpConcat {
		return nil
	}
	width := 0
	for _, s := range tree.Sub {
		for s.Op == syntax.OpCapture {
			s = s.Sub[0]
		}
		if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0 && string(s.Rune) == string(lit) {
			re, err := regexp.Compile(`\A(?:(?m)` + pattern + `)`)
			if err != nil {
				return nil
			}
			return &anchoredCheck{re: re, start: width}
		}
		w, ok := fixedWidth(s)
		if !ok {
			return nil
		}
		width += w
	}
	return nil
}

// fixedWidth is the length in bytes of every match of re, when they all
// have the same; ok false otherwise, and for anything that looks at the
// text around it (^, \b...).
func fixedWidth(re *syntax.Regexp) (n int, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune)), re.Flags&syntax.FoldCase == 0
	case syntax.OpCharClass:
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return 0, false
			}
		}
		return 1, len(re.Rune) > 0
	case syntax.OpCapture:
		return fixedWidth(re.Sub[0])
	case syntax.OpRepeat:
		if w, ok := fixedWidth(re.Sub[0]); ok && re.Min == re.Max {
			return w * re.Min, true
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			w, ok := fixedWidth(s)
			if !ok {
				return 0, false
			}
			n += w
		}
		return n, true
	}
	return 0, false
}

// hit reports whether line matches, trying the pattern anchored before
// each occurrence of the literal (found by f) from offset at on.
func (c *anchoredCheck) hit(f *litFinder, line []byte, at int) bool {
	for {
		if start := at - c.start; start >= 0 && c.re.Match(line[start:]) {
			return true
		}
		i := f.index(line[at+1:])
		if i < 0 {
			return false
		}
		at += 1 + i
	}
}
