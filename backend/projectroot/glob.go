package projectroot

import (
	"path"
	"strings"
)

// globKind says how a glob matches a name.
type globKind uint8

const (
	globLiteral  globKind = iota // no wildcard: the name itself
	globStars                    // '*' is its only wildcard: "*.log", "test_*", "*cache*"
	globPattern                  // '?', '[...]' or '\': path.Match
	globAnyDepth                 // "**"
)

// glob is one segment of an ignore pattern, compiled once when the rules are
// read: every file a listing or a walk sees is matched against every rule, and
// path.Match on "*.log" costs more than the rest of the walk.
type glob struct {
	kind   globKind
	pat    string
	pieces []string // globStars: pat split at each '*'
}

func compileGlob(pat string) glob {
	switch {
	case pat == "**":
		return glob{kind: globAnyDepth, pat: pat}
	case strings.ContainsAny(pat, "?[\\"):
		return glob{kind: globPattern, pat: pat}
	case strings.Contains(pat, "*"):
		return glob{kind: globStars, pat: pat, pieces: strings.Split(pat, "*")}
	}
	return glob{kind: globLiteral, pat: pat}
}

// match reports whether one name (no '/') matches, exactly as
// path.Match(g.pat, name) would, a malformed pattern matching nothing.
func (g glob) match(name string) bool {
	switch g.kind {
	case globLiteral:
		return name == g.pat
	case globAnyDepth:
		return true
	case globStars:
		first, last := g.pieces[0], g.pieces[len(g.pieces)-1]
		if len(name) < len(first)+len(last) || !strings.HasPrefix(name, first) || !strings.HasSuffix(name, last) {
			return false
		}
		mid := name[len(first) : len(name)-len(last)]
		for _, p := range g.pieces[1 : len(g.pieces)-1] {
			i := strings.Index(mid, p)
			if i < 0 {
				return false
			}
			mid = mid[i+len(p):]
		}
		return true
	}
	ok, err := path.Match(g.pat, name)
	return err == nil && ok
}
