package tools

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// nearMatch explains why old was not found in text: the same text with
// different whitespace, or else the most similar lines, with line numbers.
func nearMatch(text, old string) string {
	hint := ""
	if lineNumbered.MatchString(old) {
		hint = " old_text seems to start with a line number from read_file (\"  12\\t\"); leave the numbers out."
	}
	if start, end, ok := findIgnoringSpace(text, old); ok {
		a, b := lineOf(text, start), lineOf(text, max(start, end-1))
		return fmt.Sprintf("The same text exists at lines %d-%d, but %s. Copy old_text exactly from these lines:\n%s%s",
			a, b, spaceDifference(strings.Split(text, "\n")[a-1:b], old), numbered(text, a, b), hint)
	}
	if a, b, score := similarLines(text, old); score >= 0.5 {
		return fmt.Sprintf("The closest text is at lines %d-%d (about %d%% similar):\n%s\nCall read_file on those lines and copy old_text exactly.%s",
			a, b, int(score*100), numbered(text, a, b), hint)
	}
	return "Nothing similar was found either; the file may have changed or the text is in another file. Call read_file (or grep) to see the current text." + hint
}

var lineNumbered = regexp.MustCompile(`^\s*\d+\t`)

// findIgnoringSpace finds old in text treating every run of white space
// (line breaks included) as one space; it returns the span in text.
func findIgnoringSpace(text, old string) (start, end int, ok bool) {
	no, _ := squeeze(old)
	no = strings.TrimSpace(no)
	if no == "" {
		return 0, 0, false
	}
	nt, pos := squeeze(text)
	i := strings.Index(nt, no)
	if i < 0 {
		return 0, 0, false
	}
	return pos[i], pos[i+len(no)-1] + 1, true
}

// squeeze replaces each white-space run by one space; pos maps each byte of
// the result to its offset in s.
func squeeze(s string) (string, []int) {
	var b strings.Builder
	pos := make([]int, 0, len(s))
	inSpace := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !inSpace {
				b.WriteByte(' ')
				pos = append(pos, i)
			}
			inSpace = true
			continue
		}
		inSpace = false
		n := b.Len()
		b.WriteRune(r)
		for j := n; j < b.Len(); j++ {
			pos = append(pos, i+j-n)
		}
	}
	return b.String(), pos
}

// spaceDifference says how the white space of the file's lines gl and of
// want (old_text) differ, at the first line that differs.
func spaceDifference(gl []string, want string) string {
	wl := strings.Split(strings.Trim(want, "\n"), "\n")
	if len(gl) != len(wl) {
		return fmt.Sprintf("the line breaks differ (the file has %s there, old_text has %s)", plural(len(gl), "line"), plural(len(wl), "line"))
	}
	for i := range gl {
		g, w := gl[i], wl[i]
		if g == w {
			continue
		}
		gi, wi := indent(g), indent(w)
		switch {
		case gi != wi:
			return fmt.Sprintf("the indentation differs: the file indents line %d of it with %s, old_text with %s", i+1, describeSpace(gi), describeSpace(wi))
		case strings.TrimRight(g, " \t") == strings.TrimRight(w, " \t"):
			return fmt.Sprintf("trailing white space differs on line %d of it", i+1)
		default:
			return fmt.Sprintf("the spaces inside line %d of it differ (file: %q, old_text: %q)", i+1, strings.TrimSpace(g), strings.TrimSpace(w))
		}
	}
	return "the white space differs"
}

func indent(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// describeSpace names an indentation: "2 tabs", "4 spaces", "nothing".
func describeSpace(s string) string {
	tabs, spaces := strings.Count(s, "\t"), strings.Count(s, " ")
	switch {
	case tabs == 0 && spaces == 0:
		return "nothing"
	case tabs == 0:
		return plural(spaces, "space")
	case spaces == 0:
		return plural(tabs, "tab")
	}
	return plural(tabs, "tab") + " and " + plural(spaces, "space")
}

// lineOf returns the 1-indexed line holding byte offset i of text.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// numbered shows lines a..b of text the way read_file does.
func numbered(text string, a, b int) string {
	lines := strings.Split(text, "\n")
	var sb strings.Builder
	width := len(fmt.Sprint(b))
	for i := a; i <= b && i <= len(lines); i++ {
		fmt.Fprintf(&sb, "%*d\t%s\n", width, i, truncate(lines[i-1], maxLineLen))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// maxSimilarityWork bounds the line comparisons of similarLines.
const maxSimilarityWork = 400_000

// similarLines finds the window of lines in text most like the lines of
// old, scoring each line pair by the overlap of their character pairs.
func similarLines(text, old string) (a, b int, score float64) {
	tl := strings.Split(text, "\n")
	ol := strings.Split(strings.Trim(old, "\n"), "\n")
	if len(ol) > len(tl) || len(tl)*len(ol) > maxSimilarityWork {
		return 0, 0, 0
	}
	tb := make([][]uint32, len(tl))
	for i, l := range tl {
		tb[i] = bigrams(l)
	}
	ob := make([][]uint32, len(ol))
	for i, l := range ol {
		ob[i] = bigrams(l)
	}
	best, at := -1.0, 0
	for s := 0; s+len(ol) <= len(tl); s++ {
		sum := 0.0
		for j := range ol {
			sum += dice(tb[s+j], ob[j])
		}
		if sum > best {
			best, at = sum, s
		}
	}
	return at + 1, at + len(ol), best / float64(len(ol))
}

// bigrams returns the sorted character pairs of a trimmed line.
func bigrams(s string) []uint32 {
	r := []rune(strings.TrimSpace(s))
	if len(r) < 2 {
		if len(r) == 1 {
			return []uint32{uint32(r[0])}
		}
		return nil
	}
	out := make([]uint32, len(r)-1)
	for i := range out {
		out[i] = uint32(r[i])<<16 ^ uint32(r[i+1])
	}
	slices.Sort(out)
	return out
}

// dice is the Dice coefficient of two sorted bigram lists; two empty lines
// are equal.
func dice(x, y []uint32) float64 {
	if len(x)+len(y) == 0 {
		return 1
	}
	common := 0
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] == y[j]:
			common++
			i++
			j++
		case x[i] < y[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(x)+len(y))
}
