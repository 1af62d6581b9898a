// Package frontmatter holds what the readers of Claude Code's Markdown
// setup files share (skills' SKILL.md, custom agents' .md): a file read
// with a sentence for what is wrong with it, its YAML front matter cut from
// its body, the list of tool names such a front matter gives, and the
// first of several files that give the same name.
package frontmatter

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ReadFile reads a regular file of at most max bytes. The error is a
// sentence about "it" (the file) saying what to do; tooBig names the kind
// of file and how to make it smaller, as in "a SKILL.md may have: move the
// details into other files".
func ReadFile(path string, max int64, tooBig string) ([]byte, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("it could not be read (%v): check its permissions", err)
	case !fi.Mode().IsRegular():
		return nil, errors.New("it is not a regular file: make it a Markdown file")
	case fi.Size() > max:
		return nil, fmt.Errorf("it is %d KiB, more than the %d KiB %s", fi.Size()>>10, max>>10, tooBig)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("it could not be read (%v): check its permissions", err)
	}
	return b, nil
}

// Cut splits what follows a file's opening --- line at the closing ---
// line: the front matter and the body; ok is false when there is no
// closing line.
func Cut(s string) (front, body string, ok bool) {
	if rest, ok := strings.CutPrefix(s, "---\n"); ok || s == "---" {
		return "", rest, true
	}
	i := strings.Index(s, "\n---\n")
	if i < 0 {
		if strings.HasSuffix(s, "\n---") {
			return s[:len(s)-4], "", true
		}
		return "", "", false
	}
	return s[:i], s[i+5:], true
}

// Tools reads a front matter's list of tool names, written as one string
// ("Read, Grep, Glob" or "Bash(git:*) Read") or as a YAML list; Set
// reports whether the key was there with a value.
type Tools struct {
	Names []string
	Set   bool
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (t *Tools) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		t.Names, t.Set = SplitTools(n.Value), true
		return nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		for _, s := range list {
			t.Names = append(t.Names, SplitTools(s)...)
		}
		t.Set = true
		return nil
	}
	return errors.New("tools (or a skill's allowed-tools) must be a YAML list or one string of names separated by commas")
}

// SplitTools splits at commas, and at spaces outside parentheses.
func SplitTools(s string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if w := strings.TrimSpace(cur.String()); w != "" {
			out = append(out, w)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || r == ' ' || r == '\t'):
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

// FirstOfEach keeps, in order, the first item of each name (key gives an
// item's name and file); shadowed is called for each later one with the
// file of the first, which wins.
func FirstOfEach[T any](items []T, key func(T) (name, path string), shadowed func(item T, first string)) []T {
	where := map[string]string{} // name → the file that has it
	var out []T
	for _, it := range items {
		name, path := key(it)
		if first, ok := where[name]; ok {
			shadowed(it, first)
			continue
		}
		where[name] = path
		out = append(out, it)
	}
	return out
}
