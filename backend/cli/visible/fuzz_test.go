package visible

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// seeds are texts an attacker or an ordinary user writes.
var seeds = []string{
	"",
	"REAL #\r\x1b[2K  PreToolUse: npm run lint --silent",
	"\x1b]0;title\x07\x1b]52;c;ZXZpbA==\x1b\\\x1b[?1049h",
	"access\u202e\u2066 // check\u2069\u2066 level",
	"che\u200bck\u200c.sh\u200d\ufeff\u00ad\u2060\u2064\u061c\u200e\u200f",
	"hi\U000E0041\U000E0020\U000E007F",
	"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F and 🏴\U000E0067",
	"a\ufe0f\ufe0f😀\U000E0100\U000E0101\u180b\u180b",
	"👩\u200d💻 می\u200cخواهم क्\u200dष ക്\u200d 1\ufe0f\u20e3",
	"\xff\xc3\x28\xe2\x80\x9b\xc2\x9b",
	`C:\dir\ \e \x1b \u202e \\ \`,
	"a\r\nb\rc\n\td\u2028\u2029\u0085",
}

// FuzzLine: Line's output is one line with nothing hidden, reads back
// exactly as the text, is left alone by Block, and is the text itself
// when there was nothing to show.
func FuzzLine(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		checkShown(t, s, out, true)
		if back := unline(t, out); !bytes.Equal(back, []byte(s)) {
			t.Fatalf("Line(%q) = %q reads back as %q", s, out, back)
		}
		if b := Block(out); b != out {
			t.Fatalf("Block(Line(%q)) = %q, not %q", s, b, out)
		}
		if !suspect(s) && !strings.Contains(s, `\`) && out != s {
			t.Fatalf("Line(%q) = %q: ordinary text changed", s, out)
		}
	})
}

// FuzzBlock: Block's output has nothing hidden, is the text itself when
// there was nothing to show, and is what a Writer writes of the text cut
// anywhere.
func FuzzBlock(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, uint16(3), uint16(7))
	}
	f.Fuzz(func(t *testing.T, s string, cut1, cut2 uint16) {
		out := Block(s)
		checkShown(t, s, out, false)
		if !suspect(s) && out != s {
			t.Fatalf("Block(%q) = %q: ordinary text changed", s, out)
		}
		j, _ := json.Marshal(s)
		var want, got string
		if err := json.Unmarshal(j, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(Block(string(j))), &got); err != nil || got != want {
			t.Fatalf("Block(%s) = %s: %v, value %q", j, Block(string(j)), err, got)
		}
		a, b := int(cut1)%(len(s)+1), int(cut2)%(len(s)+1)
		a, b = min(a, b), max(a, b)
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, p := range []string{s[:a], s[a:b], s[b:]} {
			w.Write([]byte(p))
		}
		w.Flush()
		if buf.String() != out {
			t.Fatalf("a Writer cut at %d and %d wrote %q, Block %q", a, b, buf.String(), out)
		}
	})
}

// checkShown fails when out holds a byte that is not UTF-8 or a
// character the package doc says is never shown, apart from the
// contexts it keeps (checked here on their own terms: a joiner between
// non-ASCII characters, one selector after a non-ASCII character or a
// keycap's base, tags only in a flag).
func checkShown(t *testing.T, in, out string, line bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("%q shown as %q, not UTF-8", in, out)
	}
	rs := []rune(out)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return -1
		}
		return rs[i]
	}
	for i, r := range rs {
		bad := false
		switch {
		case r == '\n' || r == '\t':
			bad = line
		case r == zwnj || r == zwj:
			bad = at(i-1) < 0x80 || at(i+1) >= 0 && at(i+1) < 0x80 && !unicode.IsSpace(at(i+1)) && !unicode.IsPunct(at(i+1))
		case unicode.Is(unicode.Variation_Selector, r):
			p := at(i - 1)
			bad = p < 0 || unicode.Is(unicode.Variation_Selector, p) || p < 0x80 && !(r == 0xFE0F || r == 0xFE0E) || p < 0x80 && !strings.ContainsRune("#*0123456789", p)
		case r >= 0xE0000 && r <= 0xE007F:
			tag := func(r rune) bool { return r >= 0xE0030 && r <= 0xE0039 || r >= 0xE0061 && r <= 0xE007A }
			j := i - 1
			for tag(at(j)) {
				j--
			}
			k := i
			for r != cancelTag && tag(at(k)) {
				k++
			}
			bad = at(j) != blackFlag || at(k) != cancelTag || k-j-1 < 1 || k-j-1 > maxTags
		default:
			bad = never(r)
		}
		if bad {
			t.Fatalf("%q shown as %q, with %U at %d", in, out, r, i)
		}
	}
}

// never reports whether r is one of the characters the package doc
// lists as never shown as itself.
func never(r rune) bool {
	for _, rg := range [][2]rune{
		{0, 0x1f}, {0x7f, 0x9f}, {0xad, 0xad}, {0x34f, 0x34f}, {0x61c, 0x61c}, {0x115f, 0x1160},
		{0x17b4, 0x17b5}, {0x180e, 0x180e}, {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x206f},
		{0x3164, 0x3164}, {0xfeff, 0xfeff}, {0xffa0, 0xffa0}, {0xfff0, 0xfffb}, {0xfffe, 0xffff},
		{0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0000, 0xe0fff},
	} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return unicode.Is(unicode.Cf, r)
}

// suspect reports whether s holds anything but printable characters of
// ordinary text: a byte that is not UTF-8, a control, a format or
// default-ignorable character, a selector, a separator.
func suspect(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) || never(r) || unicode.Is(unicode.Variation_Selector, r) {
			return true
		}
	}
	return false
}
