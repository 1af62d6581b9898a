// Package customagent finds custom agents: Markdown files whose YAML front
// matter gives an agent's name, description, tools and model, and whose
// body is its system prompt (Claude Code's subagent format). The model
// delegates to one through the task tool's subagent_type.
//
// The folders, in the order a name is looked up (the first one found wins;
// a file of the same name further down is listed as shadowed, as in Claude
// Code, where a project's agents win over the user's):
//
//	.pilot/agents         ScopePilotProject
//	.claude/agents        ScopeProject
//	PILOT_HOME/agents     ScopePilotUser
//	~/.claude/agents      ScopeUser
//
// tools names Claude Code's tools (Read, Grep, Edit, Bash, ...); they are
// mapped back to Pilot's through hooks.Names. A name Pilot has no tool for,
// or one a custom agent cannot use, is kept in Agent.Ignored with the
// reason, never dropped silently. A file that cannot be used is returned in
// Set.Problems with a sentence saying what to fix.
package customagent

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"pilot/backend/frontmatter"
	"pilot/backend/projectroot"
)

// Scope says which folder an agent comes from (the same words as
// settingsjson's and skills' scopes).
type Scope string

// The scopes, one per folder.
const (
	ScopePilotProject Scope = "pilot-project" // .pilot/agents
	ScopeProject      Scope = "project"       // .claude/agents
	ScopePilotUser    Scope = "pilot-user"    // PILOT_HOME/agents
	ScopeUser         Scope = "user"          // ~/.claude/agents
)

// Limits of a file and of a folder.
const (
	MaxName        = 64
	MaxDescription = 1024
	maxAgents      = 200 // per folder; more are a problem
)

// agentFile bounds an agent's file: a bigger one is a problem, not read.
var agentFile = projectroot.Kind{Name: "an agent's file", Limit: 256 << 10, Fix: "shorten its prompt"}

// Agent is one usable custom agent.
type Agent struct {
	Name        string
	Description string
	// Tools are the Pilot tools the agent may call, in the registry's
	// order; all of ChangeTools and ReadTools when the front matter gives
	// no tools.
	Tools []string
	// Ignored are the names of the front matter's tools the agent does
	// not get, each with why ("WebSearch: Pilot has no such tool").
	Ignored []string
	// Model is the front matter's model as written ("" when absent).
	Model  string
	Scope  Scope
	Path   string // the file (absolute)
	Prompt string // the body: the agent's system prompt
}

// ReadOnly reports whether every tool of the agent only reads: it then
// runs as a helper does, with no approvals.
func (a Agent) ReadOnly() bool {
	for _, t := range a.Tools {
		if !ReadTools[t] {
			return false
		}
	}
	return true
}

// Problem is a file that is not used, and why in a sentence.
type Problem struct {
	Path   string
	Scope  Scope
	Reason string
	// Refused: Pilot did not read the file for safety (a link out of the
	// project, not a regular file, too big).
	Refused bool
	// Name and ShadowedBy are set for a good agent that another file of
	// the same name wins over (ShadowedBy: that file).
	Name, ShadowedBy string
}

// String is the problem as a sentence for the user.
func (p Problem) String() string { return p.Path + " is not used as an agent: " + p.Reason }

// Set is what Load found.
type Set struct {
	Agents   []Agent // sorted by name
	Problems []Problem
}

// Find returns the agent called name.
func (s Set) Find(name string) (Agent, bool) {
	for _, a := range s.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Names lists the agents' names, sorted.
func (s Set) Names() []string {
	out := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		out[i] = a.Name
	}
	return out
}

// Dir is one folder agents are looked up in.
type Dir struct {
	Path  string
	Scope Scope
}

// Dirs lists the agent folders for a project folder ("" for none),
// PILOT_HOME and a user home (the OS home, "" to leave ~/.claude out), in
// lookup order.
func Dirs(home, pilotHome, project string) []Dir {
	var out []Dir
	add := func(base string, scope Scope, parts ...string) {
		if base != "" {
			out = append(out, Dir{filepath.Join(append([]string{base}, parts...)...), scope})
		}
	}
	add(project, ScopePilotProject, ".pilot", "agents")
	add(project, ScopeProject, ".claude", "agents")
	add(pilotHome, ScopePilotUser, "agents")
	add(home, ScopeUser, ".claude", "agents")
	return out
}

// Load finds the agents of Dirs(home, pilotHome, project). The project's
// folders are read through the project's root: a file that is a link out
// of the project, or anything but a regular file, is a Problem, not read.
func Load(home, pilotHome, project string) Set {
	var root *projectroot.Root
	if project != "" {
		if r, err := projectroot.New(project); err == nil {
			root = r
			defer r.Close()
		}
	}
	var set Set
	var all []Agent
	for _, d := range Dirs(home, pilotHome, project) {
		f := frontmatter.Folder{Path: d.Path}
		if d.Scope == ScopePilotProject || d.Scope == ScopeProject {
			if root == nil {
				continue
			}
			f.Root, f.Rel = root, path.Join(filepath.Base(filepath.Dir(d.Path)), "agents")
		}
		found, problems := scan(d, f)
		all = append(all, found...)
		set.Problems = append(set.Problems, problems...)
	}
	set.Agents = frontmatter.FirstOfEach(all, func(a Agent) (string, string) { return a.Name, a.Path }, func(a Agent, first string) {
		set.Problems = append(set.Problems, Problem{Path: a.Path, Scope: a.Scope, Name: a.Name, ShadowedBy: first,
			Reason: fmt.Sprintf("%s has the same name (%s) and wins; rename one of them (the name in the front matter)", first, a.Name)})
	})
	sort.Slice(set.Agents, func(i, j int) bool { return set.Agents[i].Name < set.Agents[j].Name })
	return set
}

// scan reads the *.md files of one folder (f: d read as the project's or
// the user's).
func scan(d Dir, f frontmatter.Folder) ([]Agent, []Problem) {
	entries, err := f.List()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		var nr *projectroot.NotRead
		if errors.As(err, &nr) {
			return nil, []Problem{{Path: d.Path, Scope: d.Scope, Reason: nr.Reason(), Refused: true}}
		}
		return nil, []Problem{{Path: d.Path, Scope: d.Scope, Reason: err.Error()}}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []Agent
	var problems []Problem
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		path := filepath.Join(d.Path, e.Name())
		if len(out) >= maxAgents {
			problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: fmt.Sprintf("not read: the folder has more than %d agents", maxAgents)})
			continue
		}
		b, refused, err := f.ReadFile(e.Name(), agentFile)
		var a Agent
		if err == nil {
			a, err = Parse(b)
		}
		if err != nil {
			problems = append(problems, Problem{Path: path, Scope: d.Scope, Reason: err.Error(), Refused: refused})
			continue
		}
		a.Scope, a.Path = d.Scope, path
		out = append(out, a)
	}
	return out, problems
}

var validName = regexp.MustCompile(`^[a-z0-9]+([-_][a-z0-9]+)*$`)
