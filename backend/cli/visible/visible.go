// Package visible shows text from outside Pilot (a project file, a
// server, a program's output, the model) on a terminal with every
// character in it visible: nothing in it can move the cursor, erase or
// recolour what Pilot printed, reorder a line, or hide a character.
//
// Written as an escape, never as itself:
//   - C0 controls: `\e` (ESC), `\r` (CR), else `\x07` (so a line break
//     in a line is `\x0a`, a tab `\x09`);
//   - DEL, C1 controls (U+0080-U+009F), line and paragraph separators
//     (U+2028, U+2029), every format character (Unicode's Cf: the
//     bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E,
//     U+2066-U+2069, the zero-width U+200B-U+200D, U+2060-U+2064, U+FEFF,
//     U+00AD, the tags U+E0000-U+E007F, ...), the rest of what Unicode
//     calls default-ignorable (U+034F, the Hangul fillers, U+17B4,
//     U+17B5, unassigned U+2065, U+FFF0-U+FFF8, U+E0080-U+E0FFF, ...),
//     variation selectors, and noncharacters (U+FFFE, ...): `\u202e`,
//     and above U+FFFF a UTF-16 surrogate pair (`\udb40\udc41`), as
//     JSON and JavaScript write them;
//   - a byte that is not UTF-8: `\xff` (only 80-ff, so never confused
//     with a control).
//
// Some of those characters are part of ordinary text, and are kept
// where, and only where, they do that job (so any script and any emoji
// passes unchanged):
//   - ZWNJ and ZWJ (U+200C, U+200D) between two characters that join
//     (non-ASCII letters, marks and symbols: Persian words, Indic
//     conjuncts, emoji sequences such as woman, ZWJ, laptop); between ASCII, after a
//     space or at an end they hide nothing but a difference, and are
//     escaped;
//   - one variation selector after a base it can select for: VS15 and
//     VS16 (U+FE0E, U+FE0F, text or emoji presentation) after a non-ASCII
//     character or a keycap's #, * or digit; VS1-VS14 after a non-ASCII
//     character; the ideographic selectors (U+E0100-U+E01EF) after a Han
//     ideograph; the Mongolian ones after a Mongolian letter. A second
//     selector in a row, or one after ASCII letters, is how text is
//     smuggled in selectors, and is escaped;
//   - the tags of an emoji flag (U+1F3F4, 1-7 tags a-z 0-9, U+E007F:
//     Scotland's is U+1F3F4 then the tags g b s c t); tags anywhere else
//     are ASCII smuggling, and are escaped.
//
// Two forms. Line is for a field on one line, and for everything a user
// decides on (a command to trust or approve, a path, a name): line
// breaks and tabs are escaped too, and a backslash of the text is
// doubled wherever it could be read as the start of an escape (before
// \, e, r, x, u, an escaped character or the end), so the text can
// always be told back exactly. The escape letters are few on purpose:
// an ordinary command's `printf '%s\n'` or `sed 's/\t/ /'` is shown as
// it is written. Block is for text of several lines (the model's
// answer, a message, a hook's output, a file's lines): line breaks and
// tabs stay as they are (a carriage return is shown, even before a line
// break: the terminal never gets one), and backslashes too, since
// doubling them would misquote the code the user copies; what matters
// there is that the text cannot drive the terminal.
//
// Block(Line(s)) == Line(s), so a Writer (Block) over output whose
// fields were already made visible with Line changes nothing; and
// Block of JSON is JSON of the same value (what JSON holds as itself is
// written in JSON's own escapes), so a Writer may stand over JSON too.
package visible

// Line returns s for one line of a terminal: every character shown as
// itself or as an escape, and an escape never confused with the text.
func Line(s string) string {
	if plain(s, true) {
		return s
	}
	out, _, _ := render(make([]byte, 0, len(s)+16), s, start, true, true)
	return string(out)
}

// Block returns s for lines of a terminal: as Line, but line breaks and
// tabs are kept and backslashes are left as written.
func Block(s string) string {
	if plain(s, false) {
		return s
	}
	out, _, _ := render(make([]byte, 0, len(s)+16), s, start, false, true)
	return string(out)
}

// plain reports whether s is printable ASCII (with \n and \t in a
// block), with no backslash in a line: the common case, unchanged.
func plain(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f && !(line && c == '\\'):
		case !line && (c == '\n' || c == '\t'):
		default:
			return false
		}
	}
	return true
}
