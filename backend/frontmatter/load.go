package frontmatter

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"pilot/backend/projectroot"
)

// Scope says which folder a definition comes from (the same words as
// settingsjson's scopes).
type Scope string

// The scopes, one per folder of a Kind (NAME: its Folder).
const (
	ScopePilotProject Scope = "pilot-project" // .pilot/NAME
	ScopeProject      Scope = "project"       // .claude/NAME
	ScopePilotUser    Scope = "pilot-user"    // PILOT_HOME/NAME
	ScopeUser         Scope = "user"          // ~/.claude/NAME
)

// Limits of a definition's front matter (the Agent Skills
// specification's, which custom agents keep too).
const (
	MaxName        = 64
	MaxDescription = 1024
)

// Problem is a file (or a folder) that is not used, and why in a sentence
// that says what to fix.
type Problem struct {
	Path   string
	Scope  Scope
	Reason string
	// Refused: Pilot did not read the file for safety (a link out of the
	// project, not a regular file, too big).
	Refused bool
	// Name and ShadowedBy are set for a usable definition that an earlier
	// folder's of the same name wins over (ShadowedBy: that one's file).
	Name, ShadowedBy string
	as               string // what it is not used as: "an agent"
}

// String is the problem as a sentence for the user.
func (p Problem) String() string { return p.Path + " is not used as " + p.as + ": " + p.Reason }

// Kind says what the folders of one kind of definition (custom agents,
// skills) are and how a definition is read from one: Load does the rest.
type Kind[T any] struct {
	// Folder is the folders' name (.pilot/Folder, .claude/Folder,
	// PILOT_HOME/Folder, ~/.claude/Folder), and the word for several
	// definitions in a Problem ("more than 200 agents").
	Folder string
	// As is what a definition is used as, in a Problem ("an agent").
	As string
	// Order lists the folders by scope in lookup order: the first
	// definition of a name wins, a later one is a shadowed Problem.
	Order []Scope
	// Max is how many definitions one folder may give; more are Problems.
	Max int
	// Limit bounds a definition's file: a bigger one is a Problem, not read.
	Limit projectroot.Kind
	// Pick is where the definition an entry of a folder f stands for is:
	// the file name in the folder in; ok false passes the entry over, err
	// (with ok false) makes it a Problem of the entry.
	Pick func(f Folder, e fs.DirEntry) (in Folder, name string, ok bool, err error)
	// Missing, when set, is the Reason of an entry whose file is not
	// there (a Problem of in's Path); "" when Pick only gives files it
	// listed.
	Missing string
	// Parse reads a definition's file (entry: the entry's name).
	Parse func(b []byte, entry string) (T, error)
	// Place records where a definition was found: its scope, the folder
	// it is in and its file (absolute).
	Place func(t *T, scope Scope, in Folder, file string)
	// Name is a definition's name.
	Name func(T) string
}

// dir is one folder definitions are looked up in.
type dir struct {
	path  string
	scope Scope
}

// dirs lists the Kind's folders for a user home (the OS home, "" to leave
// ~/.claude out), PILOT_HOME and a project folder ("" for none), in
// lookup order.
func (k Kind[T]) dirs(home, pilotHome, project string) []dir {
	var out []dir
	for _, s := range k.Order {
		base, parts := project, []string{".claude", k.Folder}
		switch s {
		case ScopePilotProject:
			parts[0] = ".pilot"
		case ScopePilotUser:
			base, parts = pilotHome, parts[1:]
		case ScopeUser:
			base = home
		}
		if base != "" {
			out = append(out, dir{filepath.Join(append([]string{base}, parts...)...), s})
		}
	}
	return out
}

// found is a usable definition and where it is.
type found[T any] struct {
	def        T
	name, path string
	scope      Scope
}

// Load finds the definitions of the Kind's folders, sorted by name, and
// the Problems of those not used. The project's folders are read through
// the project's root: a file (or a folder) that is a link out of the
// project, or anything but a regular file, is a Problem, not read.
func (k Kind[T]) Load(home, pilotHome, project string) ([]T, []Problem) {
	var root *projectroot.Root
	if project != "" {
		if r, err := projectroot.New(project); err == nil {
			root = r
			defer r.Close()
		}
	}
	var all []found[T]
	var problems []Problem
	for _, d := range k.dirs(home, pilotHome, project) {
		f := Folder{Path: d.path}
		if d.scope == ScopePilotProject || d.scope == ScopeProject {
			if root == nil {
				continue
			}
			f.Root, f.Rel = root, path.Join(filepath.Base(filepath.Dir(d.path)), k.Folder)
		}
		all, problems = k.scan(d, f, all, problems)
	}
	all = FirstOfEach(all, func(x found[T]) (string, string) { return x.name, x.path }, func(x found[T], first string) {
		p := k.problem(x.path, x.scope, fmt.Sprintf("%s has the same name (%s) and wins; rename one of them (the name in the front matter)", first, x.name))
		p.Name, p.ShadowedBy = x.name, first
		problems = append(problems, p)
	})
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	var out []T
	for _, x := range all {
		out = append(out, x.def)
	}
	return out, problems
}

// scan adds the definitions of one folder (f: d read as the project's or
// the user's) to all, and its Problems to problems.
func (k Kind[T]) scan(d dir, f Folder, all []found[T], problems []Problem) ([]found[T], []Problem) {
	entries, err := f.List()
	if errors.Is(err, fs.ErrNotExist) {
		return all, problems
	}
	if err != nil {
		return all, append(problems, k.folderProblem(d.path, d.scope, err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		in, name, ok, err := k.Pick(f, e)
		if err != nil {
			problems = append(problems, k.folderProblem(f.Sub(e.Name()).Path, d.scope, err))
		}
		if !ok {
			continue
		}
		file := filepath.Join(in.Path, name)
		missing := k.problem(in.Path, d.scope, k.Missing)
		if n >= k.Max {
			if k.Missing != "" && !in.Exists(name) {
				problems = append(problems, missing)
			} else {
				problems = append(problems, k.problem(file, d.scope, fmt.Sprintf("not read: the folder has more than %d %s", k.Max, k.Folder)))
			}
			continue
		}
		// Read first: whether it exists is asked only when it could not be.
		b, refused, err := in.ReadFile(name, k.Limit)
		var def T
		if err == nil {
			def, err = k.Parse(b, e.Name())
		} else if k.Missing != "" && !in.Exists(name) {
			problems = append(problems, missing)
			continue
		}
		if err != nil {
			p := k.problem(file, d.scope, err.Error())
			p.Refused = refused
			problems = append(problems, p)
			continue
		}
		k.Place(&def, d.scope, in, file)
		all = append(all, found[T]{def: def, name: k.Name(def), path: file, scope: d.scope})
		n++
	}
	return all, problems
}

func (k Kind[T]) problem(path string, scope Scope, reason string) Problem {
	return Problem{Path: path, Scope: scope, Reason: reason, as: k.As}
}

// folderProblem is a folder that could not be listed.
func (k Kind[T]) folderProblem(path string, scope Scope, err error) Problem {
	p := k.problem(path, scope, err.Error())
	var nr *projectroot.NotRead
	if errors.As(err, &nr) {
		p.Reason, p.Refused = nr.Reason(), true
	}
	return p
}

// Find returns the definition of list called name.
func (k Kind[T]) Find(list []T, name string) (T, bool) {
	for _, it := range list {
		if k.Name(it) == name {
			return it, true
		}
	}
	var zero T
	return zero, false
}

// Parse reads a definition's file: its front matter into m (a struct of
// yaml fields), and returns its body. The error is a sentence saying what
// to fix; then is what a file without front matter is told comes after
// the closing --- line (", then the agent's prompt").
func Parse(b []byte, m any, then string) (body string, err error) {
	text := strings.TrimPrefix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\ufeff")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", errors.New("it has no front matter: start it with a --- line, then name: and description:, then a --- line" + then)
	}
	fm, body, ok := Cut(rest)
	if !ok {
		return "", errors.New("its front matter is not closed: end it with a line holding only ---")
	}
	if err := yaml.Unmarshal([]byte(fm), m); err != nil {
		return "", fmt.Errorf("its front matter is not valid YAML (%s): fix it (quote a description that holds a colon)", strings.Join(strings.Fields(err.Error()), " "))
	}
	return body, nil
}

// Prompt is a system prompt's part listing definitions: intro (ending in
// a newline), then one line "- name: description" each. "" when there
// are none.
func Prompt[T any](intro string, list []T, line func(T) (name, description string)) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(intro)
	for _, it := range list {
		name, description := line(it)
		b.WriteString("- ")
		b.WriteString(name)
		b.WriteString(": ")
		b.WriteString(description)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}
