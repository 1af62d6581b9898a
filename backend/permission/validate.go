package permission

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"

	"pilot/backend/toolname"
)

// invalidRule is Validate's error: one sentence that names the problem
// and says what to do; errors.Is(err, ErrInvalidRule) holds.
type invalidRule struct{ msg string }

func (e *invalidRule) Error() string { return e.msg }
func (e *invalidRule) Unwrap() error { return ErrInvalidRule }

func invalid(format string, a ...any) error { return &invalidRule{msg: fmt.Sprintf(format, a...)} }

// Validate checks a rule where it enters (Settings, "always allow",
// pilot rules add, imports, project files). known tells whether a tool
// name exists (see Known); nil skips that check.
func Validate(r Rule, known func(tool string) bool) error {
	if r.Effect != Allow && r.Effect != Deny && r.Effect != Ask {
		return invalid("The rule's effect %q is neither allow nor deny: write allow or deny (or ask, for a call that is asked every time).", r.Effect)
	}
	tool := strings.TrimSpace(r.Tool)
	if tool == "" {
		return invalid("The rule names no tool: name one, such as run_bash, edits, read_file or network.")
	}
	if known != nil && !known(r.Tool) {
		if s := suggest(r.Tool, known); s != "" {
			return invalid("The rule names the tool %q, which does not exist: write %s instead.", r.Tool, s)
		}
		return invalid("The rule names the tool %q, which does not exist: use a tool's own name (such as run_bash, edits, read_file or mcp__<server>), or network for the hosts sandboxed commands reach.", r.Tool)
	}
	if strings.TrimSpace(r.Pattern) == "" {
		return invalid("The rule %s has an empty pattern, so it would match nothing: use \"*\" for every call, or a pattern such as \"go test *\".", r)
	}
	if r.Tool == NetworkTool {
		if err := validHostPattern(r); err != nil {
			return err
		}
	}
	if r.Tool == toolname.Remember && r.Effect != Deny {
		return invalid("The rule %s would do nothing: remember changes your own instruction file, outside the project, so it is asked every time (or runs in approval mode all); only a deny rule applies to it.", r)
	}
	if !doublestar.ValidatePattern(r.Pattern) {
		return invalid("The pattern %q of the rule cannot be read, as a [ or { in it is not closed: close it, or escape it with a backslash (\\[ or \\{).", r.Pattern)
	}
	return nil
}

// validHostPattern checks that a network rule's pattern is a host: a name
// (wildcards allowed) or an address, with no scheme, port, path or user.
func validHostPattern(r Rule) error {
	p := strings.TrimSpace(r.Pattern)
	alone := "write the host alone, such as registry.npmjs.org, *.github.com or 127.0.0.1"
	switch {
	case strings.Contains(p, "://"):
		return invalid("The pattern %q of the rule is a URL, but a network rule names a host: %s.", r.Pattern, alone)
	case strings.ContainsAny(p, "/@ \t"):
		return invalid("The pattern %q of the rule is not a host name (it holds a '/', '@' or a space): %s.", r.Pattern, alone)
	case strings.HasPrefix(p, "[") && strings.HasSuffix(p, "]") && strings.Contains(p, ":"):
		return invalid("The pattern %q of the rule puts an IPv6 address in brackets, which a pattern reads as a set of characters: write it without them, such as ::1.", r.Pattern)
	case strings.Count(p, ":") == 1:
		return invalid("The pattern %q of the rule names a port, but a network rule names a host, all its ports included: %s.", r.Pattern, alone)
	}
	return nil
}

// aliases are tool names people type from other tools, by their folded
// spelling (lower case, no '_', '-' or space).
var aliases = map[string]string{
	"bash": BashTool, "shell": BashTool, "sh": BashTool, "command": BashTool, "terminal": BashTool, "exec": BashTool,
	"read": toolname.ReadFile, "cat": toolname.ReadFile, "view": toolname.ReadFile,
	"edit": Edits, "edits": Edits, "write": toolname.WriteFile, "multiedit": toolname.MultiPatch, "patch": toolname.PatchFile,
	"ls": toolname.ListFiles, "list": toolname.ListFiles, "fetch": WebFetchTool, "webfetch": WebFetchTool, "curl": WebFetchTool, "websearch": WebSearchTool,
	"todowrite": toolname.TodoWrite, "todo": toolname.TodoWrite, "agent": toolname.Task, "find": toolname.Glob, "search": toolname.Grep,
	"net": NetworkTool, "internet": NetworkTool, "networking": NetworkTool, "host": NetworkTool, "hosts": NetworkTool,
}

// suggest returns a known tool that name most likely means: the same in
// another case or with camelCase spelt out (Run_Bash, WebFetch), or our
// name for another program's tool (bash, Read, Edit).
func suggest(name string, known func(string) bool) string {
	n := strings.TrimSpace(name)
	for _, c := range []string{strings.ToLower(n), snake(n), strings.ReplaceAll(strings.ToLower(n), "-", "_")} {
		if c != name && known(c) {
			return c
		}
	}
	fold := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(n))
	if a, ok := aliases[fold]; ok && known(a) {
		return a
	}
	if strings.HasPrefix(strings.ToLower(n), MCPPrefix) && !strings.HasPrefix(n, MCPPrefix) {
		if c := MCPPrefix + n[len(MCPPrefix):]; known(c) {
			return c
		}
	}
	return ""
}

// snake spells a camelCase name in snake case: WebFetch is web_fetch.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 && s[i-1] != '_' {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Known returns the tool-name check for Validate: the registry's tools,
// edits, network, and for each configured MCP server mcp__<server> and
// every mcp__<server>__<tool>.
func Known(tools []string, mcpServers []string) func(string) bool {
	names := make(map[string]bool, len(tools)+2)
	for _, t := range tools {
		names[t] = true
	}
	names[Edits] = true
	names[NetworkTool] = true
	servers := make(map[string]bool, len(mcpServers))
	for _, s := range mcpServers {
		servers[s] = true
	}
	return func(tool string) bool {
		if names[tool] {
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
