package visible

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"plain", "npm run lint --silent", "npm run lint --silent"},
		{"red team's hook", "REAL #\r\x1b[2K  PreToolUse: npm run lint --silent", `REAL #\r\e[2K  PreToolUse: npm run lint --silent`},
		{"line break and tab", "a\nb\tc", `a\x0ab\x09c`},
		{"bell, backspace, DEL", "a\x07b\x08c\x7f", `a\x07b\x08c\u007f`},
		{"C1 CSI", "a\u009b31mb", `a\u009b31mb`},
		{"bidi override", "access\u202e\u2066 // check\u2069\u2066", `access\u202e\u2066 // check\u2069\u2066`},
		{"marks", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"zero width", "che\u200bck\u2060.sh\ufeff\u00ad", `che\u200bck\u2060.sh\ufeff\u00ad`},
		{"Hangul filler", "a\u3164b", `a\u3164b`},
		{"tag smuggling", "hi\U000E0041\U000E0042", `hi\udb40\udc41\udb40\udc42`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"separators", "a\u2028b\u2029", `a\u2028b\u2029`},
		{"ZWJ between ASCII", "r\u200dm", `r\u200dm`},
		{"ZWNJ at the end", "\u0645\u200c", "\u0645\\u200c"},
		{"selector after a letter", "a\ufe0f", `a\ufe0f`},
		{"two selectors", "\u2764\ufe0f\ufe0f", "\u2764\ufe0f\\ufe0f"},
		{"selectors as smuggled bytes", "\U0001F600\U000E0100\U000E0101", `😀\udb40\udd00\udb40\udd01`},
		{"ideographic selector after Han", "葛\U000E0100", "葛\U000E0100"},
		{"tags without a cancel", "\U0001F3F4\U000E0067\U000E0062", `🏴\udb40\udc67\udb40\udc62`},
		{"too many tags", "\U0001F3F4" + strings.Repeat("\U000E0061", 8) + "\U000E007F", "🏴" + strings.Repeat(`\udb40\udc61`, 8) + `\udb40\udc7f`},
		// a backslash is doubled only where it could start an escape
		{"regular expression", `grep 'a\.b\d+'`, `grep 'a\.b\d+'`},
		{"printf", `printf '%s\n\t'`, `printf '%s\n\t'`},
		{"line continued", "docker run \\\n  -v x", `docker run \\\x0a  -v x`},
		{"backslash before an escape", "\\\x1b", `\\\e`},
		{"backslash e", `\e\x\u\r\t\\`, `\\e\\x\\u\\r\t\\\\`},
		{"backslash at the end", `C:\dir\`, `C:\dir\\`},
		{"backslash before non-ASCII", `\é`, `\\é`},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("%s: Line(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if back := unline(t, Line(c.in)); string(back) != c.in {
			t.Errorf("%s: %q read back as %q", c.name, Line(c.in), back)
		}
	}
}

// Ordinary text of any script, emoji included, is shown as it is.
func TestOrdinaryText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"Grüße, ça va? Ελληνικά, русский, 中文, 日本語のテキスト, 한국어",
		"مرحبا بالعالم، עברית",                         // right-to-left scripts need no control
		"می\u200cخواهم",                                // Persian ZWNJ
		"क्\u200dष, ക്\u200d",                          // Devanagari, Malayalam ZWJ after a virama
		"👩\u200d💻 👨\u200d👩\u200d👧\u200d👦 👍🏽 👩🏽\u200d🚀", // ZWJ sequences, skin tones
		"❤\ufe0f \u2764\ufe0f\u200d🔥 ☺\ufe0e 1\ufe0f\u20e3 #\ufe0f\u20e3 🇫🇷",
		"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", // Scotland
		"葛\U000E0100城市", // an ideographic variation sequence
		"ᠠ\u180b",       // Mongolian free variation selector
		"\u00a0non-breaking and\u3000ideographic spaces, \ufffd",
	} {
		if got := Line(s); got != s {
			t.Errorf("Line(%q) = %q", s, got)
		}
		if got := Block(s); got != s {
			t.Errorf("Block(%q) = %q", s, got)
		}
	}
}

func TestBlock(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"lines and tabs", "a\n\tb\n", "a\n\tb\n"},
		{"Windows line ends", "a\r\nb\r\n", "a\\r\nb\\r\n"},
		{"a lone carriage return", "safe\rREAL", `safe\rREAL`},
		{"carriage return at the end", "a\r", `a\r`},
		{"escape sequences", "\x1b]52;c;ZXZpbA==\x07\x1b[2J", `\e]52;c;ZXZpbA==\x07\e[2J`},
		{"backslashes stay", `fmt.Printf("%d\n", x) \e`, `fmt.Printf("%d\n", x) \e`},
		{"bidi", "if (a\u202e) {", `if (a\u202e) {`},
	} {
		if got := Block(c.in); got != c.want {
			t.Errorf("%s: Block(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// A Writer given the text in pieces writes what Block writes of the
// whole, wherever it is cut.
func TestWriterPieces(t *testing.T) {
	t.Parallel()
	s := "a\r\nb\rc👩\u200d💻x\u200dy🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F\xe2\x80❤\ufe0f\x1b[0m\r"
	want := Block(s)
	for cut := 0; cut <= len(s); cut++ {
		for cut2 := cut; cut2 <= len(s); cut2++ {
			var out bytes.Buffer
			w := NewWriter(&out)
			for _, p := range []string{s[:cut], s[cut:cut2], s[cut2:]} {
				if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("cut at %d and %d: %q, want %q", cut, cut2, out.String(), want)
			}
		}
	}
}

// A Writer writes at once what does not depend on what follows: a
// question ending in a space reaches the terminal before the answer is
// read.
func TestWriterNoDelay(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write([]byte("Trust these files as they are? [y/N] "))
	if out.String() != "Trust these files as they are? [y/N] " {
		t.Errorf("written %q", out.String())
	}
	w.Write([]byte("a\u200d"))
	if out.String() != "Trust these files as they are? [y/N] a" {
		t.Errorf("a joiner is held for what follows: written %q", out.String())
	}
}

// unline reads Line's output back into the text, failing on anything
// Line does not write.
func unline(t testing.TB, s string) []byte {
	t.Helper()
	var b []byte
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b = append(b, s[i])
			i++
			continue
		}
		if i+1 == len(s) {
			t.Fatalf("%q ends with a lone backslash", s)
		}
		switch s[i+1] {
		case '\\':
			b = append(b, '\\')
		case 'e':
			b = append(b, 0x1b)
		case 'r':
			b = append(b, '\r')
		case 'x':
			n, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil || n >= 0x20 && n < 0x80 {
				t.Fatalf("%q: bad \\x at %d", s, i)
			}
			b = append(b, byte(n))
			i += 2
		case 'u':
			r := hex4(t, s, i)
			if utf16.IsSurrogate(r) {
				r = utf16.DecodeRune(r, hex4(t, s, i+6))
				i += 6
			}
			b = utf8.AppendRune(b, r)
			i += 4
		default:
			b = append(b, '\\')
			i++
			continue
		}
		i += 2
	}
	return b
}

func hex4(t testing.TB, s string, i int) rune {
	t.Helper()
	if i+6 > len(s) || s[i:i+2] != `\u` {
		t.Fatalf("%q: bad \\u at %d", s, i)
	}
	n, err := strconv.ParseUint(s[i+2:i+6], 16, 16)
	if err != nil {
		t.Fatalf("%q: bad \\u at %d", s, i)
	}
	return rune(n)
}

// The cost on ordinary text: an answer's chunk (ASCII, then mixed with
// other scripts and emoji) and a command.
func BenchmarkVisible(b *testing.B) {
	ascii := strings.Repeat("The function returns the sum of a and b; see main.go:12.\n", 20)
	mixed := strings.Repeat("Grüße 中文 مرحبا 👩\u200d💻 ok.\n", 20)
	for _, c := range []struct {
		name string
		f    func(string) string
		s    string
	}{{"Block ascii", Block, ascii}, {"Block mixed", Block, mixed}, {"Line command", Line, `grep -rn 'a\.b' src | head -5`}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				c.f(c.s)
			}
		})
	}
}
