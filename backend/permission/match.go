package permission

import (
	"strings"
	"sync"
	"sync/atomic"

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
	return compileCommand(pattern).match(subject(command))
}

// subject is a command as command patterns match it.
func subject(command string) string {
	return strings.ReplaceAll(strings.TrimSpace(command), "/", slash)
}

// cmdPattern is a command pattern made ready to match many subjects.
type cmdPattern struct {
	pat, prefix string
	// bare is the pattern without a trailing " *", so that a deny rule
	// "rm *" also matches a bare rm ("" when there is none).
	bare, barePrefix string
	ok               bool
}

// compiled keeps made patterns: a project's rules are the same from one
// call to the next. It is emptied when it grows past maxCompiled.
var (
	compiled  sync.Map // pattern -> *cmdPattern
	nCompiled atomic.Int64
)

const maxCompiled = 4096

func compileCommand(pattern string) *cmdPattern {
	if c, ok := compiled.Load(pattern); ok {
		return c.(*cmdPattern)
	}
	c := makeCommand(pattern)
	if nCompiled.Add(1) > maxCompiled {
		compiled.Clear()
		nCompiled.Store(0)
	}
	compiled.Store(pattern, c)
	return c
}

func makeCommand(pattern string) *cmdPattern {
	p := subject(pattern)
	c := &cmdPattern{pat: p, prefix: literalPrefix(p), ok: doublestar.ValidatePattern(p)}
	if b, ok := strings.CutSuffix(p, " *"); ok {
		c.bare, c.barePrefix = b, literalPrefix(b)
	}
	return c
}

// literalPrefix is the text a pattern's subjects all start with.
func literalPrefix(p string) string {
	if i := strings.IndexAny(p, `*?[{\`); i >= 0 {
		return p[:i]
	}
	return p
}

// match matches a subject made by subject().
func (c *cmdPattern) match(s string) bool {
	return c.ok && strings.HasPrefix(s, c.prefix) && doublestar.MatchUnvalidated(c.pat, s)
}

func (c *cmdPattern) matchDeny(s string) bool {
	return c.match(s) || (c.ok && c.bare != "" && strings.HasPrefix(s, c.barePrefix) && doublestar.MatchUnvalidated(c.bare, s))
}

// matchAllow matches an allow rule against a part of a command: its
// canonical text, its source text, or, when it writes no file, the same
// without its redirections. A part that writes through a redirection
// needs a pattern that holds one.
func (c *cmdPattern) matchAllow(p *part) bool {
	if len(p.writes) > 0 && !strings.Contains(c.pat, ">") {
		return false
	}
	for _, s := range p.allowSubjects() {
		if c.match(s) {
			return true
		}
	}
	return false
}

// matchParts matches a deny rule against every rendering of every part.
func (c *cmdPattern) matchParts(a *analysis) bool {
	for i := range a.parts {
		for _, s := range a.parts[i].denySubjects() {
			if c.matchDeny(s) {
				return true
			}
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
// only such a rule opens a private or loopback address to web_fetch.
func NamesHost(r Rule, host string) bool { return NamesHostFor(WebFetchTool, r, host) }

// NamesHostFor is NamesHost for the rules of tool, WebFetchTool or
// NetworkTool: for a sandboxed command's connection, only an allow
// network rule naming the host opens its private address; a web_fetch
// rule does not, and a network rule does not for web_fetch.
func NamesHostFor(tool string, r Rule, host string) bool {
	p := strings.TrimSpace(r.Pattern)
	if r.Effect != Allow || r.Tool != tool || !hostTool(tool) || host == "" || strings.ContainsAny(p, `*?[]{}\`) {
		return false
	}
	return strings.EqualFold(strings.TrimSuffix(p, "."), strings.TrimSuffix(host, "."))
}

// Escape quotes the pattern characters of s so that it matches itself only.
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
