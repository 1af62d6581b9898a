package tools

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// compileGrep compiles a grep pattern in multi-line mode (^ and $ match at
// line boundaries). A pattern RE2 cannot take comes back as a message for
// the model: the RE2 error, why, and a fixed pattern where one is obvious.
func compileGrep(pattern string) (*regexp.Regexp, string) {
	if pattern == "" {
		return nil, "The pattern is empty. Give an RE2 regular expression, for example \"func main\" or \"TODO|FIXME\"."
	}
	re, err := regexp.Compile("(?m)" + pattern)
	if err == nil {
		return re, ""
	}
	msg := fmt.Sprintf("Invalid regular expression %q: %v. grep uses RE2 (Go's regexp syntax).", pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	var se *syntax.Error
	if errors.As(err, &se) {
		if why := regexWhy(pattern, se); why != "" {
			msg += " " + why
		}
	}
	if fix := regexFix(pattern, se); fix != "" {
		msg += fmt.Sprintf(" Fixed version: %q.", fix)
	}
	if lit := regexp.QuoteMeta(pattern); lit != pattern {
		msg += fmt.Sprintf(" To search for the text literally, use %q.", lit)
	}
	return nil, msg
}

// regexWhy explains the RE2 features models most often miss.
func regexWhy(pattern string, se *syntax.Error) string {
	switch {
	case strings.Contains(pattern, "(?=") || strings.Contains(pattern, "(?!") ||
		strings.Contains(pattern, "(?<=") || strings.Contains(pattern, "(?<!"):
		return "RE2 has no look-around ((?=...), (?!...), (?<=...), (?<!...)). A positive look-around can be matched as plain text, since grep reports whole lines; for a negative one, search for the positive part and read the lines."
	case backref.MatchString(pattern):
		return "RE2 has no backreferences (\\1); match the repeated text explicitly."
	case se != nil && se.Code == syntax.ErrInvalidRepeatOp && strings.ContainsAny(se.Expr, "+*?}"):
		return "RE2 has no possessive quantifiers (a++, a*+) and a quantifier cannot follow another."
	case se != nil && se.Code == syntax.ErrMissingRepeatArgument:
		return "A quantifier (*, +, ?) needs something before it; to match the character itself, escape it. For file names, use the file_pattern parameter or the glob tool."
	case se != nil && (se.Code == syntax.ErrMissingParen || se.Code == syntax.ErrUnexpectedParen || se.Code == syntax.ErrMissingBracket):
		return "Brackets and parentheses are regex syntax; escape them (\\(, \\[) to match them as text."
	}
	return ""
}

var backref = regexp.MustCompile(`\\[1-9]`)

// regexFix rewrites a pattern RE2 refused into one it accepts, when the
// intent is clear; "" when there is no such rewrite.
func regexFix(pattern string, se *syntax.Error) string {
	fix := pattern
	// Positive look-around becomes a plain group: same matching lines.
	fix = strings.ReplaceAll(fix, "(?<=", "(")
	fix = strings.ReplaceAll(fix, "(?=", "(")
	// PCRE spellings with an RE2 equivalent.
	fix = strings.NewReplacer(`\Z`, `\z`, `\h`, `[ \t]`, `++`, `+`, `*+`, `*`, `?+`, `?`).Replace(fix)
	if se != nil && se.Code == syntax.ErrMissingRepeatArgument && strings.HasPrefix(se.Expr, "*") {
		fix = `\` + fix // "*foo": the star was meant literally
	}
	if fix != pattern {
		if _, err := regexp.Compile("(?m)" + fix); err == nil {
			return fix
		}
	}
	// Unbalanced brackets: escape them.
	if se != nil && (se.Code == syntax.ErrMissingParen || se.Code == syntax.ErrUnexpectedParen || se.Code == syntax.ErrMissingBracket) {
		fix = strings.NewReplacer("(", `\(`, ")", `\)`, "[", `\[`, "]", `\]`).Replace(pattern)
		if _, err := regexp.Compile("(?m)" + fix); err == nil {
			return fix
		}
	}
	return ""
}

// requiredLiteral returns bytes every match must contain, or nil. With
// fold, the literal is lower-case ASCII and matches in any case.
func requiredLiteral(re *syntax.Regexp) (lit []byte, fold bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if strings.ContainsRune(s, '\n') {
			return nil, false
		}
		if re.Flags&syntax.FoldCase == 0 {
			return []byte(s), false
		}
		for _, r := range s {
			if r >= utf8.RuneSelf {
				return nil, false
			}
		}
		return []byte(strings.ToLower(s)), true
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if l, f := requiredLiteral(s); len(l) > len(lit) {
				lit, fold = l, f
			}
		}
		return lit, fold
	}
	return nil, false
}

// literalPlan describes how a pattern can skip regexp work.
type literalPlan struct {
	lit  []byte // required literal, nil if none
	fold bool   // lit (lower-case ASCII) matches in any case
	// Unicode folds k and s with the non-ASCII K (U+212A) and ſ (U+017F):
	// a folded literal holding them is only used on files without those.
	foldKS bool
	pure   bool // the whole pattern is lit: a hit needs no regexp check
	// For fold: the byte of lit least common in source code, searched in
	// both cases with bytes.IndexByte, and its offset in lit.
	anchor int
	lo, up byte
}

func planLiterals(pattern string) literalPlan {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return literalPlan{}
	}
	tree = tree.Simplify()
	lit, fold := requiredLiteral(tree)
	p := literalPlan{lit: lit, fold: fold, pure: tree.Op == syntax.OpLiteral && lit != nil && !fold}
	p.foldKS = fold && bytes.ContainsAny(lit, "ks")
	if fold {
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
		p.anchor = best
		p.lo, p.up = lit[best], lit[best]
		if 'a' <= p.lo && p.lo <= 'z' {
			p.up = p.lo - ('a' - 'A')
		}
	}
	return p
}

// commonBytes orders bytes by how often they appear in source code.
const commonBytes = " etaoinsrlcdhupmf.(),_=gy;bv\"\nw:k/x{}*-jq0z1"

// usable reports whether the literal may be used to search data.
func (p *literalPlan) usable(data []byte) bool {
	if p.lit == nil {
		return false
	}
	// 0xE2 starts the encoding of K, 0xC5 that of ſ.
	return !p.foldKS || (bytes.IndexByte(data, 0xE2) < 0 && bytes.IndexByte(data, 0xC5) < 0)
}

// index returns the offset of the first occurrence of the literal in data,
// or -1.
func (p *literalPlan) index(data []byte) int {
	if !p.fold {
		return bytes.Index(data, p.lit)
	}
	// Next position of the anchor byte in lower and upper case.
	nextLo, nextUp := -1, -1
	for pos := p.anchor; pos < len(data); {
		if nextLo < pos {
			nextLo = indexFrom(data, p.lo, pos)
		}
		if nextUp < pos {
			nextUp = indexFrom(data, p.up, pos)
		}
		at := min(nextLo, nextUp)
		if at == len(data) {
			return -1
		}
		if start := at - p.anchor; start+len(p.lit) <= len(data) && equalFoldASCII(data[start:start+len(p.lit)], p.lit) {
			return start
		}
		pos = at + 1
	}
	return -1
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
