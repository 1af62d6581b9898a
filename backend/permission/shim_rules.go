package permission

// A stand-in for the "shell" branch's Validate, Known, AlwaysAllow and
// RuleStrings, with the same signatures, so that the rules work can be
// built and tested on its own; the shell branch's versions replace this
// file at merge.

import (
	"fmt"
	"strings"
)

// Validate checks a rule before it is stored or used: the effect, a known
// tool (known reports whether a rule tool exists) and a pattern that can
// match. The error is one sentence that names the problem.
func Validate(r Rule, known func(tool string) bool) error {
	if r.Effect != Allow && r.Effect != Deny {
		return fmt.Errorf("%w: a rule either allows or denies, and %q is neither", ErrInvalidRule, r.Effect)
	}
	tool := strings.TrimSpace(r.Tool)
	if tool == "" {
		return fmt.Errorf("%w: it names no tool; name one such as run_bash or edits", ErrInvalidRule)
	}
	if known != nil && !known(tool) {
		return fmt.Errorf("%w: there is no tool %q%s", ErrInvalidRule, tool, suggest(tool, known))
	}
	if strings.TrimSpace(r.Pattern) == "" {
		return fmt.Errorf("%w: the pattern is empty and would match nothing; use * to match every call", ErrInvalidRule)
	}
	if !validPattern(r.Pattern) {
		return fmt.Errorf("%w: the pattern %q is not valid (a [ or { is not closed, or a \\ ends it)", ErrInvalidRule, r.Pattern)
	}
	return nil
}

// suggest names a known tool close to tool, as "; did you mean run_bash?".
func suggest(tool string, known func(string) bool) string {
	lower := strings.ToLower(tool)
	for _, c := range []string{lower, "run_" + lower, strings.ReplaceAll(lower, "-", "_")} {
		if c != tool && known(c) {
			return fmt.Sprintf("; did you mean %s?", c)
		}
	}
	return ""
}

// Known returns whether a rule tool exists, given the registry's tool
// names and the names of the configured MCP servers: a registry tool,
// edits, mcp__<server> or mcp__<server>__<tool> of a known server.
func Known(tools []string, mcpServers []string) func(string) bool {
	set := map[string]bool{Edits: true}
	for _, t := range tools {
		set[t] = true
	}
	servers := map[string]bool{}
	for _, s := range mcpServers {
		servers[s] = true
	}
	return func(tool string) bool {
		if set[tool] {
			return true
		}
		rest, ok := strings.CutPrefix(tool, MCPPrefix)
		if !ok {
			return false
		}
		server, mcpTool, hasTool := strings.Cut(rest, "__")
		return servers[server] && (!hasTool || mcpTool != "")
	}
}

// RuleStrings renders rules as people read them.
func RuleStrings(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// AlwaysAllow returns the rules that "always allow this" adds for req: one
// per part of a command (the parts the matcher needs allowed), none for a
// command with command substitution (no rule can allow it); the MCP tool;
// the host of web_fetch; one per path of a file change.
func AlwaysAllow(req Request) []Rule {
	switch {
	case req.Tool == BashTool:
		if strings.Contains(req.Command, "$(") || strings.Contains(req.Command, "`") {
			return nil
		}
		var out []Rule
		seen := map[string]bool{}
		for _, part := range splitCommand(req.Command) {
			if !seen[part] {
				seen[part] = true
				out = append(out, Rule{Tool: BashTool, Pattern: Escape(part), Effect: Allow})
			}
		}
		return out
	case req.isMCP():
		return []Rule{{Tool: req.Tool, Pattern: "*", Effect: Allow}}
	case req.Tool == WebFetchTool:
		return []Rule{{Tool: WebFetchTool, Pattern: Escape(strings.ToLower(req.Host)), Effect: Allow}}
	}
	out := make([]Rule, 0, len(req.Paths))
	for _, p := range req.Paths {
		out = append(out, Rule{Tool: Edits, Pattern: Escape(p), Effect: Allow})
	}
	return out
}
