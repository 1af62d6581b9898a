package visible

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// state is what render needs of the text before: the last character and
// whether it was written as itself.
type state struct {
	prev  rune
	shown bool
}

// start is the state at the beginning of a text.
var start = state{prev: -1}

const (
	zwnj      = 0x200C
	zwj       = 0x200D
	blackFlag = 0x1F3F4
	cancelTag = 0xE007F
	maxTags   = 7
)

// render appends s, made visible, to dst. Unless final, it stops before
// a character whose form depends on what follows and is not there yet
// (a cut UTF-8 sequence, a joiner, a flag's tags, a backslash of a
// line) and returns how much of s it used; the caller gives the rest
// again with what came next.
func render(dst []byte, s string, st state, line, final bool) ([]byte, int, state) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			if !final && !utf8.FullRuneInString(s[i:]) {
				return dst, i, st
			}
			dst = append(dst, '\\', 'x', hex[s[i]>>4], hex[s[i]&0xf])
			st = state{prev: -1}
			i++
			continue
		}
		rest := s[i+size:]
		next := rune(-1)
		if r == '\\' && line || r == zwnj || r == zwj {
			var more bool
			if next, more = peek(rest); more && !final {
				return dst, i, st
			}
		}
		switch {
		case r == '\\' && line:
			if next < 0x20 || next >= 0x7f || escapeStart(next) {
				dst = append(dst, '\\', '\\')
			} else {
				dst = append(dst, '\\')
			}
			st = state{prev: r, shown: true}
		case r == blackFlag:
			n, cut := flagTags(rest)
			if cut && !final {
				return dst, i, st
			}
			dst = append(dst, s[i:i+size+n]...)
			size += n
			st = state{prev: r, shown: true}
			if n > 0 {
				st.prev = cancelTag
			}
		case !line && (r == '\n' || r == '\t'),
			!hidden(r),
			(r == zwnj || r == zwj) && st.shown && joined(st.prev, next),
			selector(r) && st.shown && selects(r, st.prev):
			dst = append(dst, s[i:i+size]...)
			st = state{prev: r, shown: true}
		default:
			dst = appendEscape(dst, r)
			st = state{prev: r}
		}
		i += size
	}
	return dst, len(s), st
}

// peek returns the first character of s, -1 for none or a byte that is
// not UTF-8; more is true when s ends before it does (the text may go on).
func peek(s string) (r rune, more bool) {
	if !utf8.FullRuneInString(s) {
		return -1, true
	}
	if r, size := utf8.DecodeRuneInString(s); size > 1 || r != utf8.RuneError {
		return r, false
	}
	return -1, false
}

// escapeStart reports whether c after a backslash would read as an
// escape of a line.
func escapeStart(r rune) bool {
	switch r {
	case '\\', 'e', 'r', 'x', 'u':
		return true
	}
	return false
}

// flagTags returns the length of the tags that end an emoji flag begun
// by U+1F3F4 (1-7 tags a-z or 0-9, then the cancel tag), 0 if s does not
// start with them; cut is true when s ends before they could end.
func flagTags(s string) (n int, cut bool) {
	for count := 0; ; count++ {
		if !utf8.FullRuneInString(s[n:]) {
			return 0, true
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == cancelTag && count > 0:
			return n + size, false
		case count < maxTags && (r >= 0xE0061 && r <= 0xE007A || r >= 0xE0030 && r <= 0xE0039):
			n += size
		default:
			return 0, false
		}
	}
}

// hidden reports whether r is not written as itself, apart from the
// contexts render allows.
func hidden(r rune) bool {
	switch {
	case r < 0x7f:
		return r < 0x20
	case r <= 0x9f: // DEL and C1
		return true
	case r < 0x600: // Latin to Armenian: two
		return r == 0xad || r == 0x34f
	case r >= 0x3400 && r < 0xa000, r >= 0xac00 && r < 0xd800, r >= 0x1f000 && r < 0x1fb00: // CJK, Hangul, emoji: none
		return false
	case r == 0x2028, r == 0x2029:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Noncharacter_Code_Point)
}

// joins reports whether r is a character a ZWNJ or ZWJ can sit next to
// in ordinary text: a non-ASCII letter, mark or symbol.
func joins(r rune) bool {
	return r >= 0x80 && !hidden(r) && unicode.In(r, unicode.L, unicode.M, unicode.So, unicode.Sk)
}

// joined reports whether a ZWNJ or ZWJ between prev and next does the
// job of one: between two characters that join, or after a mark (an
// Indic virama) at the end of a word.
func joined(prev, next rune) bool {
	switch {
	case selector(prev): // an emoji's VS16, shown
		return joins(next)
	case !joins(prev):
		return false
	case joins(next):
		return true
	}
	return unicode.Is(unicode.M, prev) && (next < 0 || unicode.IsSpace(next) || unicode.IsPunct(next))
}

// selector reports whether r is a variation selector.
func selector(r rune) bool {
	return r >= 0x180B && unicode.Is(unicode.Variation_Selector, r)
}

// selects reports whether the variation selector vs may follow base.
func selects(vs, base rune) bool {
	if base < 0 || selector(base) || hidden(base) || !unicode.IsGraphic(base) || unicode.IsSpace(base) {
		return false
	}
	switch {
	case vs == 0xFE0E || vs == 0xFE0F:
		return base >= 0x80 || base == '#' || base == '*' || base >= '0' && base <= '9'
	case vs >= 0xFE00 && vs <= 0xFE0D:
		return base >= 0x80
	case vs >= 0xE0100:
		return unicode.Is(unicode.Han, base)
	}
	return unicode.Is(unicode.Mongolian, base) // U+180B-U+180D, U+180F
}

const hex = "0123456789abcdef"

// appendEscape appends the escape of r.
func appendEscape(dst []byte, r rune) []byte {
	switch r {
	case 0x1b:
		return append(dst, '\\', 'e')
	case '\r':
		return append(dst, '\\', 'r')
	}
	if r < 0x20 {
		return append(dst, '\\', 'x', hex[r>>4], hex[r&0xf])
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return appendU(appendU(dst, hi), lo)
	}
	return appendU(dst, r)
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
