// Package skills finds Agent Skills: folders holding a SKILL.md whose YAML
// front matter gives the skill's name and description (and optionally
// allowed-tools) and whose body holds the instructions, with any other
// files the skill needs beside it (Claude Code's format, the open Agent
// Skills format).
//
// The folders, in the order a name is looked up (the first one found wins;
// a skill of the same name further down is listed as shadowed, as in
// Claude Code where the user's own skills win over a project's), with
// their frontmatter scopes:
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
	"errors"
	"io/fs"
	"regexp"
	"strings"

	"pilot/backend/frontmatter"
	"pilot/backend/projectroot"
)

// skillFile bounds a SKILL.md: a bigger one is a problem, not read.
var skillFile = projectroot.Kind{Name: "a SKILL.md", Limit: 256 << 10, Fix: "move the details into other files of the skill's folder"}

// kind is where skills are and how one is read: each direct subfolder of
// a folder with a SKILL.md is one (a link to a folder is followed, as
// installers link them; in the project only inside it).
var kind = frontmatter.Kind[Skill]{
	Folder:  "skills",
	As:      "a skill",
	Order:   []frontmatter.Scope{frontmatter.ScopePilotUser, frontmatter.ScopeUser, frontmatter.ScopePilotProject, frontmatter.ScopeProject},
	Max:     500,
	Limit:   skillFile,
	Pick:    pick,
	Missing: "the folder has no SKILL.md: a skill is a folder with a SKILL.md in it (front matter name and description, then the instructions)",
	Parse:   Parse,
	Place: func(k *Skill, scope frontmatter.Scope, in frontmatter.Folder, file string) {
		k.Scope, k.Dir, k.Path = scope, in.Path, file
		if in.Root != nil {
			k.project, k.rel = in.Root.Dir(), in.Rel
		}
	},
	Name: func(k Skill) string { return k.Name },
}

// Skill is one usable skill.
type Skill struct {
	Name        string
	Description string
	// AllowedTools is the front matter's allowed-tools as written; Pilot
	// shows it and grants nothing from it.
	AllowedTools []string
	Scope        frontmatter.Scope
	Dir          string // the skill's folder (absolute)
	Path         string // its SKILL.md
	Body         string // the instructions after the front matter
	// project and rel: a project's skill's folder is opened through the
	// project's root (project, the folder; rel, the skill's folder in it).
	project, rel string
}

// Set is what Load found.
type Set struct {
	Skills   []Skill // sorted by name
	Problems []frontmatter.Problem
}

// Find returns the skill called name.
func (s Set) Find(name string) (Skill, bool) { return kind.Find(s.Skills, name) }

// Load finds the skills of the folders of a user home (the OS home, "" to
// leave ~/.claude out), PILOT_HOME and a project folder ("" for none).
// The project's folders are read through the project's root: a skill
// folder or SKILL.md that is a link out of the project, or anything but a
// regular file, is a Problem, not read.
func Load(home, pilotHome, project string) Set {
	list, problems := kind.Load(home, pilotHome, project)
	return Set{Skills: list, Problems: problems}
}

// pick is the SKILL.md of the folder e of f; a loose file beside the
// skills' folders, or a broken link, is passed over, and a link to a
// folder out of the project is a problem.
func pick(f frontmatter.Folder, e fs.DirEntry) (frontmatter.Folder, string, bool, error) {
	// The listing's type tells a folder; only a link is looked at (each
	// look resolves the path again through the root).
	if !e.IsDir() && (e.Type()&fs.ModeSymlink == 0 || !f.IsDir(e.Name())) {
		if e.Type()&fs.ModeSymlink != 0 && f.Root != nil {
			// A link to a folder out of the project is not followed.
			if _, err := f.Sub(e.Name()).List(); errors.Is(err, projectroot.ErrOutside) {
				return f, "", false, err
			}
		}
		return f, "", false, nil
	}
	return f.Sub(e.Name()), "SKILL.md", true, nil
}

// frontMatter is the part of the front matter Pilot reads; other keys
// (license, metadata, model, ...) are allowed and left alone.
type frontMatter struct {
	Name         string            `yaml:"name"`
	Description  string            `yaml:"description"`
	AllowedTools frontmatter.Tools `yaml:"allowed-tools"`
}

var naming = frontmatter.Naming{As: "a skill", Plural: "skills", Valid: regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`),
	Example: "pdf-forms", Says: "what the skill does and when to use it", Details: "the body"}

// Parse reads a SKILL.md; folder is its folder's name, the name when the
// front matter gives none. The error is a sentence saying what to fix.
func Parse(b []byte, folder string) (Skill, error) {
	var m frontMatter
	body, err := frontmatter.Parse(b, &m, "")
	if err != nil {
		return Skill{}, err
	}
	k := Skill{Name: strings.TrimSpace(m.Name), Description: strings.Join(strings.Fields(m.Description), " "), AllowedTools: m.AllowedTools.Names, Body: strings.TrimSpace(body)}
	if k.Name == "" {
		k.Name = folder
	}
	if err := naming.Check(k.Name, k.Description); err != nil {
		return Skill{}, err
	}
	return k, nil
}
