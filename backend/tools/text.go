package tools

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// sniffLen is how much of a file decides whether it is binary.
const sniffLen = 8 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// isBinary reports whether data looks binary: a NUL byte in its first 8 KB
// (the test git and ripgrep use).
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0
}

// contentType names what a binary file probably is, "image/png".
func contentType(data []byte) string {
	t := http.DetectContentType(data[:min(len(data), 512)])
	t, _, _ = strings.Cut(t, ";")
	return t
}

// textFormat is how a text file stores its lines.
type textFormat struct {
	bom  bool // starts with a UTF-8 byte order mark
	crlf bool // every line ends with \r\n
}

// decodeText splits a file into its text (no BOM, \n line ends when every
// line ended with \r\n) and its format, so edits can be made on plain text
// and encoded back the same way.
func decodeText(data []byte) (string, textFormat) {
	var f textFormat
	if bytes.HasPrefix(data, utf8BOM) {
		f.bom = true
		data = data[len(utf8BOM):]
	}
	s := string(data)
	if n := strings.Count(s, "\r\n"); n > 0 && n == strings.Count(s, "\n") {
		f.crlf = true
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s, f
}

// normalize brings text from the model to the plain form of decodeText.
func (f textFormat) normalize(s string) string {
	if f.crlf {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return strings.TrimPrefix(s, string(utf8BOM))
}

// encode turns plain text back into the file's format.
func (f textFormat) encode(s string) string {
	if f.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if f.bom {
		s = string(utf8BOM) + s
	}
	return s
}

// formatSize writes a byte count the way the progress labels do: "512 bytes",
// "1.2 KB", "3.4 MB".
func formatSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// firstLine returns the first line of s, marked with "…" when more follows.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// plural writes "1 file", "3 files", "2 entries", "4 matches".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if w, ok := strings.CutSuffix(word, "y"); ok {
		return fmt.Sprintf("%d %sies", n, w)
	}
	if strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "s") || strings.HasSuffix(word, "x") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
