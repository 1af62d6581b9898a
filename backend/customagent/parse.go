package customagent

import (
	"errors"
	"sort"
	"strings"

	"pilot/backend/frontmatter"
	"pilot/backend/hooks"
	"pilot/backend/toolname"
)

// ReadTools are the Pilot tools that only read: an agent with no others
// runs as a helper does.
var ReadTools = map[string]bool{toolname.ListFiles: true, toolname.ReadFile: true, toolname.Glob: true, toolname.Grep: true}

// ChangeTools are the Pilot tools that change files or run commands: an
// agent's calls of them go through the session's gate, review, sandbox
// and ledger.
var ChangeTools = map[string]bool{toolname.WriteFile: true, toolname.PatchFile: true, toolname.MultiPatch: true, toolname.RunBash: true}

// order is the registry's order of the tools an agent may have.
var order = []string{toolname.ListFiles, toolname.ReadFile, toolname.Glob, toolname.Grep, toolname.WriteFile, toolname.PatchFile, toolname.MultiPatch, toolname.RunBash}

// claudeToPilot maps Claude Code's tool names back to Pilot's
// (hooks.Names is the forward table).
var claudeToPilot = func() map[string]string {
	m := map[string]string{}
	for pilot, claude := range hooks.Names {
		m[claude] = pilot
	}
	return m
}()

// frontMatter is the part of the front matter Pilot reads; other keys
// (color, ...) are allowed and left alone.
type frontMatter struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Tools       frontmatter.Tools `yaml:"tools"`
	Model       string            `yaml:"model"`
}

// Parse reads an agent's file. The error is a sentence saying what to fix.
func Parse(b []byte) (Agent, error) {
	var m frontMatter
	body, err := frontmatter.Parse(b, &m, ", then the agent's prompt")
	if err != nil {
		return Agent{}, err
	}
	a := Agent{Name: strings.TrimSpace(m.Name), Description: strings.Join(strings.Fields(m.Description), " "),
		Model: strings.TrimSpace(m.Model), Prompt: strings.TrimSpace(body)}
	if a.Name == "" {
		return Agent{}, errors.New("it has no name: add name: to its front matter (lowercase letters, digits and hyphens, like code-reviewer)")
	}
	if err := naming.Check(a.Name, a.Description); err != nil {
		return Agent{}, err
	}
	if a.Prompt == "" {
		return Agent{}, errors.New("it has no prompt: write the agent's instructions after the front matter")
	}
	a.Tools, a.Ignored = mapTools(m.Tools)
	return a, nil
}

// mapTools maps the front matter's tools to Pilot's, in registry order,
// and says why each one left out is.
func mapTools(t frontmatter.Tools) (tools, ignored []string) {
	if !t.Set {
		return append([]string(nil), order...), nil
	}
	got := map[string]bool{}
	for _, name := range t.Names {
		pilot, ok := claudeToPilot[name]
		if !ok {
			pilot = name // Pilot's own name
		}
		switch {
		case ReadTools[pilot] || ChangeTools[pilot]:
			got[pilot] = true
		case strings.HasPrefix(name, "mcp__"):
			ignored = append(ignored, name+": custom agents in Pilot do not get MCP tools")
		case strings.Contains(name, "("):
			ignored = append(ignored, name+": give the tool by its name alone; the session's permission rules decide what it may do")
		case ok || hooks.ToolName(name) != name:
			ignored = append(ignored, name+": a custom agent in Pilot cannot use it (only "+strings.Join(claudeNames(), ", ")+")")
		default:
			ignored = append(ignored, name+": Pilot has no such tool")
		}
	}
	for _, name := range order {
		if got[name] {
			tools = append(tools, name)
		}
	}
	sort.Strings(ignored)
	return tools, ignored
}

// claudeNames are the Claude Code names of the tools an agent may have.
func claudeNames() []string {
	out := make([]string, len(order))
	for i, n := range order {
		out[i] = hooks.ToolName(n)
	}
	return out
}
