package memory

import (
	"regexp"
	"strings"
)

// importRE is an import as Claude Code writes it: `@` at the start of a
// line or after white space, then a path (a space in it escaped as `\ `).
var importRE = regexp.MustCompile(`(^|\s)@((?:[^\s\\]|\\ )+)`)

// importsOf are the paths text imports, in order, each once: `@path`
// outside code spans and fenced code blocks, starting with `./`, `../`,
// `~/`, `/` or a letter, digit, `.`, `_` or `-` (so `@@x` or `@#` is
// not one), without trailing punctuation (`see @a.md.` imports a.md).
func importsOf(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range codeFree(text) {
		for _, m := range importRE.FindAllStringSubmatch(line, -1) {
			p := strings.TrimRight(strings.ReplaceAll(m[2], `\ `, " "), ".,;:!?)")
			if !importable(p) || seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// stripImports is text without its imports (what else the file says).
func stripImports(text string) string {
	return importRE.ReplaceAllString(strings.Join(codeFree(text), "\n"), "$1")
}

// importable reports whether p can be a file's path.
func importable(p string) bool {
	switch {
	case p == "" || p == "/":
		return false
	case strings.HasPrefix(p, "./"), strings.HasPrefix(p, "../"), strings.HasPrefix(p, "~/"), strings.HasPrefix(p, "/"):
		return true
	}
	c := p[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// codeFree is text's lines outside fenced code blocks (``` or ~~~), each
// with its code spans (`x`, “x“) blanked.
func codeFree(text string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOf(t); f != "" && len(line)-len(t) < 4 {
			fence = f
			continue
		}
		out = append(out, blankSpans(line))
	}
	return out
}

// fenceOf is the fence a line opens (three or more ` or ~), or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// blankSpans replaces each code span of line (a run of backticks to the
// next run of the same length) with spaces.
func blankSpans(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		n := ticks(b, i)
		if n == 0 {
			i++
			continue
		}
		end := -1
		for j := i + n; j < len(b) && end < 0; {
			switch m := ticks(b, j); {
			case m == 0:
				j++
			case m == n:
				end = j + m
			default:
				j += m
			}
		}
		if end < 0 {
			i += n
			continue
		}
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}

// ticks is the length of the run of backticks at b[i:].
func ticks(b []byte, i int) int {
	n := 0
	for i+n < len(b) && b[i+n] == '`' {
		n++
	}
	return n
}
