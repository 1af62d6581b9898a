package permission

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// slash stands in for '/' when a command is matched, so that '*' in a
// command pattern also matches slashes ("go test *" matches "go test ./...").
const slash = "\uE000"

// matchPath matches a project-relative path; '*' stops at '/', '**'
// crosses folders.
func matchPath(pattern, path string) bool {
	ok, err := doublestar.Match(pattern, strings.TrimPrefix(path, "./"))
	return err == nil && ok
}

// matchCommand matches a whole command line, spaces trimmed.
func matchCommand(pattern, command string) bool {
	p := strings.ReplaceAll(strings.TrimSpace(pattern), "/", slash)
	c := strings.ReplaceAll(strings.TrimSpace(command), "/", slash)
	ok, err := doublestar.Match(p, c)
	return err == nil && ok
}

// matchHost matches a host name, case folded: "*.example.org" matches
// every subdomain, "example.org" only itself.
func matchHost(pattern, host string) bool {
	ok, err := doublestar.Match(strings.ToLower(strings.TrimSpace(pattern)), strings.ToLower(host))
	return err == nil && ok && host != ""
}

func validPattern(p string) bool { return doublestar.ValidatePattern(p) }

// splitCommand cuts a command line at ;, &, |, and newlines (not at the
// & of a redirection like 2>&1 or &>). Quotes are not honoured, which only
// makes the parts smaller: an allow rule must then match more parts, and a
// deny rule gets more chances to match.
func splitCommand(cmd string) []string {
	var out []string
	start := 0
	cut := func(end int) {
		if p := strings.TrimSpace(cmd[start:end]); p != "" {
			out = append(out, p)
		}
		start = end + 1
	}
	for i := 0; i < len(cmd); i++ {
		switch cmd[i] {
		case ';', '|', '\n', '\r':
			cut(i)
		case '&':
			redirect := (i > 0 && (cmd[i-1] == '>' || cmd[i-1] == '<')) || (i+1 < len(cmd) && cmd[i+1] == '>')
			if !redirect {
				cut(i)
			}
		}
	}
	cut(len(cmd))
	return out
}

// Escape quotes the pattern characters of s so that it matches itself only.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
