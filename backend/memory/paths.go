package memory

import (
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"pilot/backend/frontmatter"
)

// PathRules reads the project's rules (.claude/rules/*.md) whose front
// matter names paths: (a glob, or a list of them, relative to the
// project, as Claude Code reads them; `{a,b}` and `**` allowed). They are
// not in the system prompt: each is given with the first read or change
// of a file matching one of its globs (Matching), its imports with it.
// inPrompt are the system prompt's files (Load's): a rule or import that
// is one of them is shadowed. Refused imports are in the list.
func PathRules(home, dir string, inPrompt []File) []File {
	l := newLoader(home, dir, Budget)
	defer l.close()
	if l.root == nil {
		return nil
	}
	l.scoped = true
	l.shadowing(inPrompt)
	l.rules()
	return l.out
}

// Matching are the files of rules (PathRules') for the project file rel
// ('/'-separated): the rules with a glob matching it, and their imports.
func Matching(rules []File, rel string) []File {
	var out []File
	for _, f := range rules {
		if slices.ContainsFunc(f.Paths, func(g string) bool {
			ok, _ := doublestar.Match(strings.TrimPrefix(g, "./"), rel)
			return ok
		}) {
			out = append(out, f)
		}
	}
	return out
}

// scope cuts the front matter of the rule f from its text and gives f its
// paths; ours reports whether the loader reads such a rule (with paths:
// for PathRules, without for Load).
func (l *loader) scope(f *File, text string) (body string, ours bool) {
	f.Paths, body, f.Why = rulePaths(text)
	return body, (len(f.Paths) > 0) == l.scoped
}

// rulePaths reads the paths: of a rule's front matter and returns the
// text after it. A front matter that is not valid YAML is text like the
// rest, and why says so.
func rulePaths(text string) (paths []string, body, why string) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(strings.ReplaceAll(text, "\r\n", "\n"), "\ufeff"), "---\n")
	if !ok {
		return nil, text, ""
	}
	front, body, ok := frontmatter.Cut(rest)
	if !ok {
		return nil, text, ""
	}
	var m struct {
		Paths yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal([]byte(front), &m); err != nil {
		return nil, text, "Its front matter is not valid YAML, so the whole file is given, for every file: fix it (quote each glob of paths:, as \"**/*.ts\")."
	}
	globs := []*yaml.Node{&m.Paths}
	if m.Paths.Kind == yaml.SequenceNode {
		globs = m.Paths.Content
	}
	for _, n := range globs {
		if g := strings.TrimSpace(n.Value); n.Kind == yaml.ScalarNode && g != "" {
			paths = append(paths, g)
		}
	}
	return paths, body, ""
}
