package tools

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// maxLiteralSet bounds the literals of an alternation searched at once.
const maxLiteralSet = 8

// requiredLiterals returns literals one of which every match contains (a
// set of one for most patterns, several for an alternation such as
// "TODO|FIXME"), or nil. With fold, the set is one lower-case ASCII
// literal that matches in any case.
func requiredLiterals(re *syntax.Regexp) (lits [][]byte, fold bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if strings.ContainsRune(s, '\n') {
			return nil, false
		}
		if re.Flags&syntax.FoldCase == 0 {
			return [][]byte{[]byte(s)}, false
		}
		for _, r := range s {
			if r >= utf8.RuneSelf {
				return nil, false
			}
		}
		return [][]byte{[]byte(strings.ToLower(s))}, true
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		// The set whose shortest literal is the longest.
		best := 0
		for _, s := range re.Sub {
			if l, f := requiredLiterals(s); shortest(l) > best {
				lits, fold, best = l, f, shortest(l)
			}
		}
		return lits, fold
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			l, f := requiredLiterals(s)
			if l == nil || f || len(lits)+len(l) > maxLiteralSet {
				return nil, false
			}
			lits = append(lits, l...)
		}
		return lits, false
	}
	return nil, false
}

// shortest is the length of the shortest literal of a set, 0 for none.
func shortest(lits [][]byte) int {
	n := 0
	for i, l := range lits {
		if i == 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// literalPlan describes how a pattern can skip regexp work: candidates
// are found with the required literals, and only their lines go through
// the regexp.
type literalPlan struct {
	finders []litFinder // one per required literal; nil if none
	// Unicode folds k and s with the non-ASCII K (U+212A) and ſ (U+017F):
	// a folded literal holding them is only used on files without those.
	foldKS bool
	pure   bool // the whole pattern is the one literal: a hit needs no regexp check
	// anchored, when not nil, checks a candidate line instead of the
	// regexp (one literal, without fold).
	anchored *anchoredCheck
}

// litFinder finds one literal by its byte least common in source code
// (searched with bytes.IndexByte, in both cases for fold), then compares
// the rest. A literal of common bytes only (without fold) is left to
// bytes.Index, which turns to a vector search when its first byte is
// found too often.
type litFinder struct {
	lit    []byte
	fold   bool // lit (lower-case ASCII) matches in any case
	common bool // no byte of lit is rare: bytes.Index
	anchor int  // offset of the searched byte in lit
	lo, up byte // the searched byte in lower and upper case (equal without fold)
}

func planLiterals(pattern string) literalPlan {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return literalPlan{}
	}
	tree = tree.Simplify()
	lits, fold := requiredLiterals(tree)
	if shortest(lits) == 0 {
		return literalPlan{}
	}
	p := literalPlan{pure: tree.Op == syntax.OpLiteral && len(lits) == 1 && !fold}
	for _, lit := range lits {
		p.finders = append(p.finders, newFinder(lit, fold))
		p.foldKS = p.foldKS || fold && bytes.ContainsAny(lit, "ks")
	}
	if len(lits) == 1 && !fold && !p.pure {
		p.anchored = newAnchoredCheck(pattern, tree, lits[0])
	}
	return p
}

func newFinder(lit []byte, fold bool) litFinder {
	rank := func(c byte) int {
		if r := strings.IndexByte(commonBytes, c); r >= 0 {
			return r
		}
		return len(commonBytes)
	}
	best := 0
	for i := range lit {
		if rank(lit[i]) > rank(lit[best]) {
			best = i
		}
	}
	f := litFinder{lit: lit, fold: fold, anchor: best, lo: lit[best], up: lit[best], common: !fold && rank(lit[best]) < rareFrom}
	if fold && 'a' <= f.lo && f.lo <= 'z' {
		f.up = f.lo - ('a' - 'A')
	}
	return f
}

// commonBytes orders bytes by how often they appear in source code; from
// rareFrom on (and every byte not in it) they are rare.
const (
	commonBytes = " etaoinsrlcdhupmf.(),_=gy;bv\"\nw:k/x{}*-jq0z1"
	rareFrom    = 30
)

// usable reports whether the literals may be used to search data.
func (p *literalPlan) usable(data []byte) bool {
	if p.finders == nil {
		return false
	}
	// 0xE2 starts the encoding of K, 0xC5 that of ſ.
	return !p.foldKS || (bytes.IndexByte(data, 0xE2) < 0 && bytes.IndexByte(data, 0xC5) < 0)
}

// litCursor finds the plan's literals in one piece of data, remembering
// where each literal occurs next so that a set is not searched again
// from every candidate.
type litCursor struct {
	p    *literalPlan
	data []byte
	next []int // next offset of each literal at or after the last search; len(data) when none
}

func (p *literalPlan) cursor(data []byte) litCursor {
	c := litCursor{p: p, data: data}
	if len(p.finders) > 1 {
		c.next = make([]int, len(p.finders))
		for i := range c.next {
			c.next[i] = -1
		}
	}
	return c
}

// index returns the offset of the first literal at or after pos and its
// length, or -1.
func (c *litCursor) index(pos int) (int, int) {
	if c.next == nil {
		f := &c.p.finders[0]
		if i := f.index(c.data[pos:]); i >= 0 {
			return pos + i, len(f.lit)
		}
		return -1, 0
	}
	at, n := len(c.data), 0
	for i := range c.next {
		f := &c.p.finders[i]
		if c.next[i] < pos {
			c.next[i] = len(c.data)
			if j := f.index(c.data[pos:]); j >= 0 {
				c.next[i] = pos + j
			}
		}
		if c.next[i] < at || c.next[i] == at && len(f.lit) > n {
			at, n = c.next[i], len(f.lit)
		}
	}
	if at == len(c.data) {
		return -1, 0
	}
	return at, n
}

// index returns the offset of the first occurrence of the literal in data,
// or -1.
func (f *litFinder) index(data []byte) int {
	if f.common {
		return bytes.Index(data, f.lit)
	}
	// Next position of the anchor byte in lower and upper case.
	nextLo, nextUp := -1, -1
	for pos := f.anchor; pos < len(data); {
		if nextLo < pos {
			nextLo = indexFrom(data, f.lo, pos)
		}
		if f.up == f.lo {
			nextUp = nextLo
		} else if nextUp < pos {
			nextUp = indexFrom(data, f.up, pos)
		}
		at := min(nextLo, nextUp)
		if at == len(data) {
			return -1
		}
		if start := at - f.anchor; start+len(f.lit) <= len(data) && f.equal(data[start:start+len(f.lit)]) {
			return start
		}
		pos = at + 1
	}
	return -1
}

func (f *litFinder) equal(s []byte) bool {
	if !f.fold {
		return bytes.Equal(s, f.lit)
	}
	return equalFoldASCII(s, f.lit)
}

// indexFrom is bytes.IndexByte from offset pos; len(data) when absent, so
// the caller does not search again.
func indexFrom(data []byte, c byte, pos int) int {
	if i := bytes.IndexByte(data[pos:], c); i >= 0 {
		return pos + i
	}
	return len(data)
}

// equalFoldASCII compares s with the lower-case ASCII lit, ignoring case.
func equalFoldASCII(s, lit []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
