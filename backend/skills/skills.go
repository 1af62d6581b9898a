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
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"pilot/backend/frontmatter"
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
	maxSkillFile   = 256 << 10 // a bigger SKILL.md is a problem, not read
	maxSkills      = 500       // per folder; more are a problem
)

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
}

// Problem is a SKILL.md that is not used, and why in a sentence that says
// what to fix.
type Problem struct {
	Path   string
	Scope  Scope
	Reason string
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

// Load finds the skills of Dirs(home, pilotHome, project).
func Load(home, pilotHome, project string) Set {
	var set Set
	var all []Skill
	for _, d := range Dirs(home, pilotHome, project) {
		found, problems := scan(d)
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

// scan reads the skills of one folder: every direct subfolder with a
// SKILL.md (a symlinked subfolder is followed, as installers link them).
func scan(d Dir) ([]Skill, []Problem) {
	entries, err := os.ReadDir(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{{Path: d.Path, Scope: d.Scope, Reason: fmt.Sprintf("the folder could not be read (%v): check its permissions", err)}}
	}
	var out []Skill
	var problems []Problem
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(d.Path, e.Name())
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue // a loose file beside the skills' folders, or a broken link
		}
		path := filepath.Join(dir, "SKILL.md")
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, Problem{Path: dir, Scope: d.Scope, Reason: "the folder has no SKILL.md: a skill is a folder with a SKILL.md in it (front matter name and description, then the instructions)"})
			continue
		}
		if len(out) >= maxSkills {
			problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: fmt.Sprintf("not read: the folder has more than %d skills", maxSkills)})
			continue
		}
		k, err := read(path)
		if err != nil {
			problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: err.Error()})
			continue
		}
		k.Scope, k.Dir, k.Path = d.Scope, dir, path
		out = append(out, k)
	}
	return out, problems
}

func read(path string) (Skill, error) {
	b, err := frontmatter.ReadFile(path, maxSkillFile, "a SKILL.md may have: move the details into other files of the skill's folder")
	if err != nil {
		return Skill{}, err
	}
	return Parse(b, filepath.Base(filepath.Dir(path)))
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
