// Package skills finds Agent Skills: folders holding a SKILL.md whose YAML
// front matter gives the skill's name and description (and optionally
// allowed-tools) and whose body holds the instructions, with any other
// files the skill needs beside it (Claude Code's format, the open Agent
// Skills format).
//
// The folders, in the order a name is looked up (the first one found wins;
// a skill of the same name further down is listed as shadowed, as in
// Claude Code where the user's own skills win over a project's):
//
//	PILOT_HOME/skills     ScopePilotUser
//	~/.claude/skills      ScopeUser
//	.pilot/skills         ScopePilotProject
//	.claude/skills        ScopeProject
//
// Only the names and descriptions go into the system prompt (Prompt); the
// body and the files are read when the model asks for them. A SKILL.md that
// cannot be used is returned in Set.Problems with a sentence, never left
// out silently. allowed-tools is read and shown, and grants nothing: see
// docs/CLAUDE-CODE.md.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"pilot/backend/frontmatter"
	"pilot/backend/projectroot"
)

// Scope says which folder a skill comes from.
type Scope string

// The scopes, one per folder (the same words as settingsjson's scopes).
const (
	ScopePilotUser    Scope = "pilot-user"    // PILOT_HOME/skills
	ScopeUser         Scope = "user"          // ~/.claude/skills
	ScopePilotProject Scope = "pilot-project" // .pilot/skills
	ScopeProject      Scope = "project"       // .claude/skills
)

// Limits of the format (the Agent Skills specification's) and of Pilot.
const (
	MaxName        = 64
	MaxDescription = 1024
	maxSkills      = 500 // per folder; more are a problem
)

// skillFile bounds a SKILL.md: a bigger one is a problem, not read.
var skillFile = projectroot.Kind{Name: "a SKILL.md", Limit: 256 << 10, Fix: "move the details into other files of the skill's folder"}

// Skill is one usable skill.
type Skill struct {
	Name        string
	Description string
	// AllowedTools is the front matter's allowed-tools as written; Pilot
	// shows it and grants nothing from it.
	AllowedTools []string
	Scope        Scope
	Dir          string // the skill's folder (absolute)
	Path         string // its SKILL.md
	Body         string // the instructions after the front matter
	// project and rel: a project's skill's folder is opened through the
	// project's root (project, the folder; rel, the skill's folder in it).
	project, rel string
}

// Problem is a SKILL.md that is not used, and why in a sentence that says
// what to fix.
type Problem struct {
	Path   string
	Scope  Scope
	Reason string
	// Refused: Pilot did not read the file for safety (a link out of the
	// project, not a regular file, too big).
	Refused bool
	// ShadowedBy is, for a usable skill whose name an earlier folder's
	// skill has, that skill's SKILL.md ("" for a broken one); Name is then
	// the shared name.
	ShadowedBy string
	Name       string
}

// String is the problem as a sentence for the user.
func (p Problem) String() string { return p.Path + " is not used as a skill: " + p.Reason }

// Set is what Load found.
type Set struct {
	Skills   []Skill // sorted by name
	Problems []Problem
}

// Find returns the skill called name.
func (s Set) Find(name string) (Skill, bool) {
	for _, k := range s.Skills {
		if k.Name == name {
			return k, true
		}
	}
	return Skill{}, false
}

// Dir is one folder skills are looked up in.
type Dir struct {
	Path  string
	Scope Scope
}

// Dirs lists the skill folders for a user home (the OS home, "" to leave
// ~/.claude out), PILOT_HOME and a project folder ("" for none), in lookup
// order.
func Dirs(home, pilotHome, project string) []Dir {
	var out []Dir
	add := func(base string, scope Scope, parts ...string) {
		if base != "" {
			out = append(out, Dir{filepath.Join(append([]string{base}, parts...)...), scope})
		}
	}
	add(pilotHome, ScopePilotUser, "skills")
	add(home, ScopeUser, ".claude", "skills")
	add(project, ScopePilotProject, ".pilot", "skills")
	add(project, ScopeProject, ".claude", "skills")
	return out
}

// Load finds the skills of Dirs(home, pilotHome, project). The project's
// folders are read through the project's root: a skill folder or
// SKILL.md that is a link out of the project, or anything but a regular
// file, is a Problem, not read.
func Load(home, pilotHome, project string) Set {
	var root *projectroot.Root
	if project != "" {
		if r, err := projectroot.New(project); err == nil {
			root = r
			defer r.Close()
		}
	}
	var set Set
	var all []Skill
	for _, d := range Dirs(home, pilotHome, project) {
		f := frontmatter.Folder{Path: d.Path}
		if d.Scope == ScopePilotProject || d.Scope == ScopeProject {
			if root == nil {
				continue
			}
			f.Root, f.Rel = root, path.Join(filepath.Base(filepath.Dir(d.Path)), "skills")
		}
		found, problems := scan(d, f)
		for i := range found {
			if f.Root != nil {
				found[i].project, found[i].rel = root.Dir(), path.Join(f.Rel, filepath.Base(found[i].Dir))
			}
		}
		all = append(all, found...)
		set.Problems = append(set.Problems, problems...)
	}
	set.Skills = frontmatter.FirstOfEach(all, func(k Skill) (string, string) { return k.Name, k.Path }, func(k Skill, first string) {
		set.Problems = append(set.Problems, Problem{Path: k.Path, Scope: k.Scope, ShadowedBy: first, Name: k.Name,
			Reason: fmt.Sprintf("%s has the same name (%s) and wins; rename one of them (the name in the front matter)", first, k.Name)})
	})
	sort.Slice(set.Skills, func(i, j int) bool { return set.Skills[i].Name < set.Skills[j].Name })
	return set
}

// scan reads the skills of one folder (f: d read as the project's or the
// user's): every direct subfolder with a SKILL.md (a link to a folder is
// followed, as installers link them; in the project only inside it).
func scan(d Dir, f frontmatter.Folder) ([]Skill, []Problem) {
	entries, err := f.List()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{folderProblem(d, err)}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []Skill
	var problems []Problem
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(d.Path, e.Name())
		// The listing's type tells a folder; only a link is looked at
		// (each look resolves the path again through the root).
		if !e.IsDir() && (e.Type()&fs.ModeSymlink == 0 || !f.IsDir(e.Name())) {
			if e.Type()&fs.ModeSymlink != 0 && f.Root != nil {
				// A link to a folder out of the project is not followed.
				if _, lerr := f.Sub(e.Name()).List(); errors.Is(lerr, projectroot.ErrOutside) {
					problems = append(problems, folderProblem(Dir{Path: dir, Scope: d.Scope}, lerr))
				}
			}
			continue // a loose file beside the skills' folders, or a broken link
		}
		sub := f.Sub(e.Name())
		path := filepath.Join(dir, "SKILL.md")
		noSkill := Problem{Path: dir, Scope: d.Scope, Reason: "the folder has no SKILL.md: a skill is a folder with a SKILL.md in it (front matter name and description, then the instructions)"}
		if len(out) >= maxSkills {
			if !sub.Exists("SKILL.md") {
				problems = append(problems, noSkill)
			} else {
				problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: fmt.Sprintf("not read: the folder has more than %d skills", maxSkills)})
			}
			continue
		}
		// Read first: whether it exists is asked only when it could not be.
		b, refused, err := sub.ReadFile("SKILL.md", skillFile)
		var k Skill
		if err == nil {
			k, err = Parse(b, e.Name())
		} else if !sub.Exists("SKILL.md") {
			problems = append(problems, noSkill)
			continue
		}
		if err != nil {
			problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: err.Error(), Refused: refused})
			continue
		}
		k.Scope, k.Dir, k.Path = d.Scope, dir, path
		out = append(out, k)
	}
	return out, problems
}

// folderProblem is a folder that could not be listed.
func folderProblem(d Dir, err error) Problem {
	var nr *projectroot.NotRead
	if errors.As(err, &nr) {
		return Problem{Path: d.Path, Scope: d.Scope, Reason: nr.Reason(), Refused: true}
	}
	return Problem{Path: d.Path, Scope: d.Scope, Reason: err.Error()}
}

// frontMatter is the part of the front matter Pilot reads; other keys
// (license, metadata, model, ...) are allowed and left alone.
type frontMatter struct {
	Name         string            `yaml:"name"`
	Description  string            `yaml:"description"`
	AllowedTools frontmatter.Tools `yaml:"allowed-tools"`
}

var validName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Parse reads a SKILL.md; folder is its folder's name, the name when the
// front matter gives none. The error is a sentence saying what to fix.
func Parse(b []byte, folder string) (Skill, error) {
	text := strings.TrimPrefix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\ufeff")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return Skill{}, errors.New("it has no front matter: start it with a --- line, then name: and description:, then a --- line")
	}
	fm, body, ok := frontmatter.Cut(rest)
	if !ok {
		return Skill{}, errors.New("its front matter is not closed: end it with a line holding only ---")
	}
	var m frontMatter
	if err := yaml.Unmarshal([]byte(fm), &m); err != nil {
		return Skill{}, fmt.Errorf("its front matter is not valid YAML (%s): fix it (quote a description that holds a colon)", oneLine(err.Error()))
	}
	k := Skill{Name: strings.TrimSpace(m.Name), Description: strings.Join(strings.Fields(m.Description), " "), AllowedTools: m.AllowedTools.Names, Body: strings.TrimSpace(body)}
	if k.Name == "" {
		k.Name = folder
	}
	switch {
	case len(k.Name) > MaxName || !validName.MatchString(k.Name):
		return Skill{}, fmt.Errorf("its name %q is not a skill name: use at most %d lowercase letters, digits and hyphens (like pdf-forms)", k.Name, MaxName)
	case k.Description == "":
		return Skill{}, errors.New("it has no description: add description: to its front matter, saying what the skill does and when to use it (the model chooses skills by it)")
	case len(k.Description) > MaxDescription:
		return Skill{}, fmt.Errorf("its description is %d characters, more than %d: shorten it (the details belong in the body)", len(k.Description), MaxDescription)
	}
	return k, nil
}

func oneLine(s string) string {
	return string(bytes.Join(bytes.Fields([]byte(s)), []byte(" ")))
}
