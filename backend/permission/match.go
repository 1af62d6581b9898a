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

// matchCommand matches a command, spaces around both trimmed.
func matchCommand(pattern, command string) bool {
	return matchExact(pattern, strings.TrimSpace(command))
}

func matchExact(pattern, command string) bool {
	p := strings.ReplaceAll(strings.TrimSpace(pattern), "/", slash)
	ok, err := doublestar.Match(p, strings.ReplaceAll(command, "/", slash))
	return err == nil && ok
}

// matchAllow matches an allow rule against a part of a command: its
// canonical text, its source text, or, when it writes no file, the same
// without its redirections. A part that writes through a redirection
// needs a pattern that holds one.
func matchAllow(pattern string, p part) bool {
	if len(p.writes) > 0 && !strings.Contains(pattern, ">") {
		return false
	}
	if matchCommand(pattern, p.text) || matchCommand(pattern, p.raw) {
		return true
	}
	return len(p.writes) == 0 && matchCommand(pattern, p.plain)
}

// matchDeny matches a deny rule against a part of a command in every
// rendering it has; a trailing space lets "rm *" match a bare rm.
func matchDeny(pattern string, p part) bool {
	for _, s := range append([]string{p.text, p.raw}, p.deny...) {
		s = strings.TrimSpace(s)
		if matchExact(pattern, s) || matchExact(pattern, s+" ") {
			return true
		}
	}
	return false
}

// matchHost matches a host name, case folded: "*.example.org" matches
// every subdomain, "example.org" only itself.
func matchHost(pattern, host string) bool {
	ok, err := doublestar.Match(strings.ToLower(strings.TrimSpace(pattern)), strings.ToLower(host))
	return err == nil && ok && host != ""
}

// NamesHost reports whether r is an allow rule for web_fetch that names
// host itself, without wildcards (case folded, a trailing dot ignored):
// only such a rule opens a private or loopback address.
func NamesHost(r Rule, host string) bool {
	p := strings.TrimSpace(r.Pattern)
	if r.Effect != Allow || r.Tool != WebFetchTool || host == "" || strings.ContainsAny(p, `*?[]{}\`) {
		return false
	}
	return strings.EqualFold(strings.TrimSuffix(p, "."), strings.TrimSuffix(host, "."))
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
