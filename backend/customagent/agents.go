// Package customagent finds custom agents: Markdown files whose YAML front
// matter gives an agent's name, description, tools and model, and whose
// body is its system prompt (Claude Code's subagent format). The model
// delegates to one through the task tool's subagent_type.
//
// The folders, in the order a name is looked up (the first one found wins;
// a file of the same name further down is listed as shadowed, as in Claude
// Code, where a project's agents win over the user's), with their
// frontmatter scopes:
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
	"io/fs"
	"regexp"
	"strings"

	"pilot/backend/frontmatter"
	"pilot/backend/projectroot"
)

// kind is where custom agents are and how one is read: each *.md file of
// a folder is one.
var kind = frontmatter.Kind[Agent]{
	Folder: "agents",
	As:     "an agent",
	Order:  []frontmatter.Scope{frontmatter.ScopePilotProject, frontmatter.ScopeProject, frontmatter.ScopePilotUser, frontmatter.ScopeUser},
	Max:    200,
	Limit:  projectroot.Kind{Name: "an agent's file", Limit: 256 << 10, Fix: "shorten its prompt"},
	Pick: func(f frontmatter.Folder, e fs.DirEntry) (frontmatter.Folder, string, bool, error) {
		return f, e.Name(), strings.HasSuffix(e.Name(), ".md"), nil
	},
	Parse: func(b []byte, _ string) (Agent, error) { return Parse(b) },
	Place: func(a *Agent, scope frontmatter.Scope, _ frontmatter.Folder, file string) {
		a.Scope, a.Path = scope, file
	},
	Name: func(a Agent) string { return a.Name },
}

// Agent is one usable custom agent.
type Agent struct {
	Name        string
	Description string
	// Tools are the Pilot tools the agent may call, in the registry's
	// order; all of ChangeTools and ReadTools when the front matter gives
	// no tools.
	Tools []string
	// Ignored are the names of the front matter's tools the agent does
	// not get, each with why ("NotebookEdit: Pilot has no such tool").
	Ignored []string
	// Model is the front matter's model as written ("" when absent).
	Model  string
	Scope  frontmatter.Scope
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

// Set is what Load found.
type Set struct {
	Agents   []Agent // sorted by name
	Problems []frontmatter.Problem
}

// Find returns the agent called name.
func (s Set) Find(name string) (Agent, bool) { return kind.Find(s.Agents, name) }

// Names lists the agents' names, sorted.
func (s Set) Names() []string {
	out := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		out[i] = a.Name
	}
	return out
}

// Load finds the agents of the folders of a project folder ("" for
// none), PILOT_HOME and a user home (the OS home, "" to leave ~/.claude
// out). The project's folders are read through the project's root: a
// file that is a link out of the project, or anything but a regular file,
// is a Problem, not read.
func Load(home, pilotHome, project string) Set {
	agents, problems := kind.Load(home, pilotHome, project)
	return Set{Agents: agents, Problems: problems}
}

var naming = frontmatter.Naming{As: "an agent", Plural: "agents", Valid: regexp.MustCompile(`^[a-z0-9]+([-_][a-z0-9]+)*$`),
	Example: "code-reviewer", Says: "when to use the agent", Details: "the prompt"}
