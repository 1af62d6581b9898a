// Package frontmatter holds what the readers of Claude Code's Markdown
// setup files share (skills' SKILL.md, custom agents' .md): a folder of
// them, the project's read through its root and the user's as they are,
// each file with a sentence for what is wrong with it, its YAML front
// matter cut from its body, the list of tool names such a front matter
// gives, and the first of several files that give the same name.
package frontmatter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"pilot/backend/projectroot"
)

// Folder is a folder of setup files: the project's, read through its
// root (Root set, Rel the folder inside it: no link out of the project,
// regular files only, never waiting, bounded), or the user's own (Root
// nil: links followed as the user made them, regular files only, never
// waiting, bounded). Path is where it is, for messages.
type Folder struct {
	Path string
	Root *projectroot.Root
	Rel  string // '/'-separated, relative to Root
}

// List reads the folder's entries (an fs.ErrNotExist error when it is
// missing). Any other error is a clause about "the folder" saying what to
// do; a *projectroot.NotRead for a project folder Pilot did not read.
func (f Folder) List() ([]fs.DirEntry, error) {
	if f.Root != nil {
		return f.Root.ListOwn(f.Rel)
	}
	ents, err := os.ReadDir(f.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the folder could not be read (%v): check its permissions", err)
	}
	return ents, err
}

// Sub is the folder name inside f.
func (f Folder) Sub(name string) Folder {
	s := Folder{Path: filepath.Join(f.Path, name), Root: f.Root}
	if f.Root != nil {
		s.Rel = path.Join(f.Rel, name)
	}
	return s
}

// IsDir reports whether name in f is a folder, a link to one followed (in
// the project only while it stays inside).
func (f Folder) IsDir(name string) bool {
	if f.Root != nil {
		fi, _, err := f.Root.Stat(path.Join(f.Rel, name))
		return err == nil && fi.IsDir()
	}
	fi, err := os.Stat(filepath.Join(f.Path, name))
	return err == nil && fi.IsDir()
}

// Exists reports whether name is in f (a link counts, wherever it leads).
func (f Folder) Exists(name string) bool {
	var err error
	if f.Root != nil {
		_, err = f.Root.FS().Lstat(path.Join(f.Rel, name))
	} else {
		_, err = os.Lstat(filepath.Join(f.Path, name))
	}
	return err == nil
}

// ReadFile reads the file name of f, at most k.Limit bytes. The error is a
// clause about "it" (the file) saying what to do, as in "it is larger
// than the 256 KiB a SKILL.md may have: move the details into other files
// of the skill's folder"; refused reports a file Pilot did not read for
// safety (a link out of the project, not a regular file, too big).
func (f Folder) ReadFile(name string, k projectroot.Kind) (b []byte, refused bool, err error) {
	if f.Root != nil {
		b, err = f.Root.ReadOwn(path.Join(f.Rel, name), k)
	} else {
		b, err = projectroot.ReadUserFile(filepath.Join(f.Path, name), k)
	}
	var nr *projectroot.NotRead
	switch {
	case err == nil:
		return b, false, nil
	case errors.As(err, &nr):
		return nil, true, errors.New(nr.Reason())
	}
	return nil, false, fmt.Errorf("it could not be read (%v): check its permissions", err)
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
