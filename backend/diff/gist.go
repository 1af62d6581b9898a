package diff

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// gistWidth caps each side of a Gist, in runes.
const gistWidth = 40

// Gist says in a few words what the change from oldText to newText does:
// its first changed line before and after ("beta → BETA"), "+ line" for a
// first hunk that only adds, "− line" for one that only removes; "" when
// nothing changed. Lines are trimmed and cut to gistWidth runes.
func Gist(oldText, newText string) string {
	d := Compute(oldText, newText)
	if d.Len() == 0 {
		return ""
	}
	var del, add string
	var hasDel, hasAdd bool
	for _, l := range d.hunks[0].view.Lines {
		switch {
		case l.Kind == "del" && !hasDel:
			del, hasDel = l.Text, true
		case l.Kind == "add" && !hasAdd:
			add, hasAdd = l.Text, true
		}
	}
	switch {
	case hasDel && hasAdd:
		return cut(del) + " → " + cut(add)
	case hasAdd:
		return "+ " + cut(add)
	case hasDel:
		return "− " + cut(del)
	}
	return ""
}

// SizeChange says how the size of a file went from before to after bytes:
// "327 bytes" for a new file, "same size", or "312 → 301 bytes".
func SizeChange(existed bool, before, after int) string {
	switch {
	case !existed:
		return size(after)
	case before == after:
		return "same size"
	}
	return fmt.Sprintf("%s → %s", strings.TrimSuffix(size(before), " bytes"), size(after))
}

func size(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

func cut(s string) string {
	s = strings.TrimSpace(strings.TrimRight(s, "\r\n"))
	if utf8.RuneCountInString(s) <= gistWidth {
		return s
	}
	r := []rune(s)
	return string(r[:gistWidth-1]) + "…"
}
