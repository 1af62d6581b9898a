package projectroot

import (
	"bytes"
	"path"
	"strings"
)

// Names of the files that hold ignore rules, in the order they are read
// within one folder (later rules win).
var ignoreFiles = [...]string{".gitignore", ".pilotignore"}

// rule is one line of an ignore file.
type rule struct {
	segs     []glob // the '/'-separated pattern; "**" segments match any depth
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": folders only
	anchored bool   // contains a '/': relative to the file's folder, else matched against the name
}

// ruleSet is the rules of one ignore file, which apply in its folder.
type ruleSet struct {
	prefix string // the folder relative to the root with a trailing '/', "" for the root
	rules  []rule
}

// matcher is the ignore rules in force in one folder, shallowest first.
// It is never modified after creation, so walkers share it freely.
type matcher struct {
	sets []*ruleSet
}

// parseRules reads gitignore syntax.
func parseRules(base string, data []byte) *ruleSet {
	rs := &ruleSet{}
	if base != "" {
		rs.prefix = base + "/"
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSuffix(string(line), "\r")
		if s == "" || s[0] == '#' {
			continue
		}
		// Trailing spaces are dropped unless escaped with a backslash.
		for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, "\\ ") {
			s = s[:len(s)-1]
		}
		var r rule
		switch {
		case strings.HasPrefix(s, "!"):
			r.negate = true
			s = s[1:]
		case strings.HasPrefix(s, "\\!"), strings.HasPrefix(s, "\\#"):
			s = s[1:]
		}
		if strings.HasSuffix(s, "/") {
			r.dirOnly = true
			s = strings.TrimRight(s, "/")
		}
		if s == "" {
			continue
		}
		if strings.Contains(s, "/") {
			r.anchored = true
			s = strings.TrimLeft(s, "/")
		}
		s = strings.ReplaceAll(s, "[!", "[^")
		for _, seg := range strings.Split(s, "/") {
			r.segs = append(r.segs, compileGlob(seg))
		}
		rs.rules = append(rs.rules, r)
	}
	return rs
}

// with returns a matcher that also applies rs (deeper, so it wins).
func (m *matcher) with(rs *ruleSet) *matcher {
	if rs == nil || len(rs.rules) == 0 {
		return m
	}
	sets := make([]*ruleSet, len(m.sets), len(m.sets)+1)
	copy(sets, m.sets)
	return &matcher{sets: append(sets, rs)}
}

// ignored reports whether the entry rel ('/'-separated, relative to the
// root, made of non-empty names) named name is ignored. The last matching
// rule decides.
func (m *matcher) ignored(rel, name string, isDir bool) bool {
	for i := len(m.sets) - 1; i >= 0; i-- {
		rs := m.sets[i]
		sub := strings.TrimPrefix(rel, rs.prefix)
		for j := len(rs.rules) - 1; j >= 0; j-- {
			r := &rs.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			var hit bool
			if r.anchored {
				hit = matchSegs(r.segs, sub)
			} else {
				hit = r.segs[0].match(name)
			}
			if hit {
				return !r.negate
			}
		}
	}
	return false
}

// matchSegs matches the '/'-separated names of p ("" when none are left)
// against pattern segments, where "**" stands for any number of names (at
// the end: at least one).
func matchSegs(pat []glob, p string) bool {
	for len(pat) > 0 {
		if pat[0].kind == globAnyDepth {
			pat = pat[1:]
			if len(pat) == 0 {
				return p != ""
			}
			for {
				if matchSegs(pat, p) {
					return true
				}
				if p == "" {
					return false
				}
				_, p = cutName(p)
			}
		}
		if p == "" {
			return false
		}
		name, rest := cutName(p)
		if !pat[0].match(name) {
			return false
		}
		pat, p = pat[1:], rest
	}
	return p == ""
}

// cutName splits the first name off p.
func cutName(p string) (name, rest string) {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, ""
}

// maxIgnoreFile bounds the ignore files read.
const maxIgnoreFile = 1 << 20

// readSmall reads the regular file rel through the root, at most
// maxIgnoreFile bytes.
func (r *Root) readSmall(rel string) ([]byte, error) {
	f, fi, _, err := r.OpenRead(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, ErrNotRegular
	}
	return ReadAtMost(f, fi, maxIgnoreFile)
}

// readRules reads the ignore files named in names found in the folder rel
// and returns m extended by them.
func (r *Root) readRules(m *matcher, rel string, has func(name string) bool) *matcher {
	base := rel
	if base == "." {
		base = ""
	}
	var all *ruleSet
	for _, name := range ignoreFiles {
		if !has(name) {
			continue
		}
		data, err := r.readSmall(path.Join(rel, name))
		if err != nil {
			continue // an unreadable ignore file ignores nothing
		}
		rs := parseRules(base, data)
		if all == nil {
			all = rs
			continue
		}
		all.rules = append(all.rules, rs.rules...)
	}
	return m.with(all)
}

// matcherFor returns the rules in force inside the folder rel: the root's
// .git/info/exclude, then the ignore files of the root and of every folder
// down to rel.
func (r *Root) matcherFor(rel string) *matcher {
	m := &matcher{}
	if data, err := r.readSmall(".git/info/exclude"); err == nil {
		m = m.with(parseRules("", data))
	}
	exists := func(dir string) func(string) bool {
		return func(name string) bool {
			_, err := r.root.Lstat(path.Join(dir, name))
			return err == nil
		}
	}
	m = r.readRules(m, ".", exists("."))
	if rel == "." || rel == "" {
		return m
	}
	cur := ""
	for _, c := range strings.Split(rel, "/") {
		cur = path.Join(cur, c)
		m = r.readRules(m, cur, exists(cur))
	}
	return m
}

// IsIgnoreFile reports whether a file of this name holds ignore rules.
func IsIgnoreFile(name string) bool {
	for _, n := range ignoreFiles {
		if n == name {
			return true
		}
	}
	return false
}
