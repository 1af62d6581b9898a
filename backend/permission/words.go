package permission

import (
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as rules see it.
type word struct {
	value   string // the word with its quotes taken off, when literal
	literal bool   // no expansion: the value is known before it runs
	glob    bool   // unquoted pattern or brace characters the shell expands
	raw     string // the source text
	canon   string // the value quoted only as much as it needs
}

// word reads a word: its quotes and backslashes taken off when nothing
// in it is expanded at run time.
func (w *walker) word(x *syntax.Word) word {
	out := word{raw: w.slice(x), literal: true}
	if len(x.Parts) == 1 {
		// The common case, a bare word: nothing to take off.
		if l, ok := x.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[]{},") && printable(l.Value) {
			out.value, out.canon = l.Value, l.Value
			return out
		}
	}
	var b strings.Builder
	plain := true
	for _, p := range x.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v, esc := unescape(p.Value, false)
			plain = plain && !esc
			out.glob = out.glob || isGlob(p.Value)
			b.WriteString(v)
		case *syntax.SglQuoted:
			plain = false
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			plain = false
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					out.literal = false
					continue
				}
				v, _ := unescape(lit.Value, true)
				b.WriteString(v)
			}
		default:
			out.literal = false
		}
	}
	if !out.literal {
		out.canon = out.raw
		return out
	}
	out.value = b.String()
	out.canon = out.value
	if !plain || !printable(out.value) {
		if q, err := syntax.Quote(out.value, syntax.LangBash); err == nil {
			out.canon = q
		}
	}
	return out
}

// printable reports a word that needs no quotes for its odd characters.
func printable(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) })
}

// unescape takes the backslashes off an unquoted or double-quoted
// literal; it reports whether there were any.
func unescape(s string, dquoted bool) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !dquoted || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// isGlob reports unescaped pattern characters (* ? [...]) or a brace
// expansion in an unquoted literal.
func isGlob(s string) bool {
	open := -1
	brace := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			open = i
		case ']':
			if open >= 0 {
				return true
			}
		case '{':
			brace = true
		case '}', ',':
			if brace {
				return true
			}
		}
	}
	return false
}

// ansiC decodes the body of a $'...' string as bash does.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < max && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			n, err := strconv.ParseUint(s[i+1:j], 16, 32)
			if err != nil {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default: // \\ \' \" \? and unknown escapes
			if strings.IndexByte(`\'"?`, c) < 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}
