// Package settingsrules maps the permission rules of settings.json files
// (Claude Code's format, read by settingsjson) to Pilot's rules
// (permission.Rule), so a setup written for Claude Code keeps its allow,
// deny and ask lists in Pilot.
//
// An entry is "Tool" or "Tool(specifier)". What each becomes:
//
//	Bash, Bash(*)              run_bash "*"
//	Bash(git diff)             run_bash "git diff" (the command exactly; '*' is a wildcard)
//	Bash(npm run test:*)       run_bash "npm run test" and "npm run test *" (the prefix and what follows it)
//	Bash(ls *)                 run_bash "ls" and "ls *" (a single trailing " *" is optional, as in Claude Code)
//	Read(path)                 read_file, list_files, glob and grep on the path (Claude Code applies Read rules to its search tools)
//	Edit(path)                 edits on the path (every file-changing tool)
//	Write(path)                write_file on the path; MultiEdit(path): multi_patch
//	Glob, Grep, LS, TodoWrite, Task   glob, grep, list_files, todo_write, task "*" (bare only)
//	WebFetch                   web_fetch "*"; WebFetch(domain:example.com): web_fetch "example.com"
//	WebSearch                  web_search "*" (bare only: Pilot's rules name the search service's host)
//	mcp__server, mcp__server__*        mcp__server "*" (every tool of the server)
//	mcp__server__tool          mcp__server__tool "*"
//
// Paths follow the gitignore rules Claude Code documents: "//abs" is an
// absolute path and "~/p" one under the home folder (both kept only when
// they fall inside the project, the only place Pilot's file tools reach);
// "/p" is relative to the project root; "p" and "./p" are relative to
// the project too, and a pattern without a '/' (such as "*.env") matches
// at any depth. A pattern also covers everything under a folder it names.
// A trailing '/' names folders only.
//
// Every rule made is checked by permission.Validate, as Pilot's own
// rules are. An entry that cannot be mapped (a tool Pilot lacks, a
// negated or outside path, an MCP server not configured, a bad pattern)
// is returned as Ignored with the sentence that says why, never dropped.
//
// Deny and ask rules apply from every file at once: they only restrict.
// Allow rules of a project's file (settingsjson.Scope.FromProject) apply
// only while the user trusts that file's content (the trusted function
// given to Map).
package settingsrules

import (
	"path"
	"path/filepath"
	"strings"

	"pilot/backend/permission"
	"pilot/backend/settingsjson"
	"pilot/backend/toolname"
)

// Rule is one Pilot rule made from an entry of a settings file.
type Rule struct {
	permission.Rule
	Entry string             // the entry as the file has it: Bash(npm run test:*)
	File  string             // the settings file's path
	Scope settingsjson.Scope // and its scope
	// Applies: the rule is in force. False only for an allow rule of a
	// project's file that the user has not trusted (as it is now).
	Applies bool
}

// Ignored is an entry (or a key) of a settings file that Pilot does not
// use, with the sentence that says why.
type Ignored struct {
	Entry  string // the entry, or the key (permissions.defaultMode)
	Effect string // allow, deny or ask; "" for a key or a broken file
	File   string
	Scope  settingsjson.Scope
	Reason string
}

// Set is every file's rules and ignored entries, in the files' order.
type Set struct {
	Rules   []Rule
	Ignored []Ignored
}

// InForce returns the rules that apply, for the gate.
func (s Set) InForce() []permission.Rule {
	var out []permission.Rule
	for _, r := range s.Rules {
		if r.Applies {
			out = append(out, r.Rule)
		}
	}
	return out
}

// Map maps the permission entries of files for the project folder project
// (absolute) and the user's home folder home. known is the check of tool
// names for permission.Validate (nil: none); trusted tells whether a
// project's file is trusted as it is now (nil: none is).
func Map(files []settingsjson.File, project, home string, known func(string) bool, trusted func(settingsjson.File) bool) Set {
	var s Set
	for _, f := range files {
		ignore := func(entry, effect, reason string) {
			s.Ignored = append(s.Ignored, Ignored{Entry: entry, Effect: effect, File: f.Path, Scope: f.Scope, Reason: reason})
		}
		if f.Err != nil {
			ignore("", "", f.Err.Error())
			continue
		}
		applies := !f.Scope.FromProject() || (trusted != nil && trusted(f))
		lists := []struct {
			effect  permission.Effect
			entries []string
		}{{permission.Deny, f.Permissions.Deny}, {permission.Ask, f.Permissions.Ask}, {permission.Allow, f.Permissions.Allow}}
		for _, l := range lists {
			for _, e := range l.entries {
				rs, why := Entry(e, l.effect, project, home)
				if why == "" {
					why = validate(rs, known)
				}
				if why != "" {
					ignore(e, string(l.effect), why)
					continue
				}
				for _, r := range rs {
					s.Rules = append(s.Rules, Rule{Rule: r, Entry: e, File: f.Path, Scope: f.Scope, Applies: applies || l.effect != permission.Allow})
				}
			}
		}
		if m := f.Permissions.DefaultMode; m != "" {
			ignore("defaultMode: "+m, "", "Pilot does not take its approval mode from a settings file: choose the mode of a session with its mode control, or the default in Settings › Approvals (pilot -p: --approve).")
		}
		for _, d := range f.Permissions.AdditionalDirectories {
			ignore("additionalDirectories: "+d, "", "Pilot's tools work inside the project folder only, so it does not add folders: open that folder as a project of its own.")
		}
	}
	return s
}

// validate checks each rule as Pilot checks its own; the sentence of the
// first that fails, or "".
func validate(rs []permission.Rule, known func(string) bool) string {
	for _, r := range rs {
		if err := permission.Validate(r, known); err != nil {
			return sentence(err.Error())
		}
	}
	return ""
}

// readTools are the tools a Read rule covers.
var readTools = []string{toolname.ReadFile, toolname.ListFiles, toolname.Glob, toolname.Grep}

// bareOnly are tools whose entries Pilot maps only without a specifier.
var bareOnly = map[string]string{"Glob": toolname.Glob, "Grep": toolname.Grep, "LS": toolname.ListFiles, "TodoWrite": toolname.TodoWrite, "Task": toolname.Task}

// missing are Claude Code's tools Pilot does not have, with what to do.
var missing = map[string]string{
	"NotebookEdit": "Pilot has no notebook tool, so the entry has nothing to match; its edits rules cover notebook files changed as text.",
	"NotebookRead": "Pilot has no notebook tool, so the entry has nothing to match; Read rules cover notebook files read as text.",
	"BashOutput":   "Pilot's job_output reads only the session's own background jobs and is never asked about, so the entry has nothing to match; Bash rules judge the command that starts a job.",
	"KillShell":    "Pilot's job_stop stops only the session's own background jobs and is never asked about, so the entry has nothing to match.",
	"SlashCommand": "Pilot's slash commands are typed by the user, not called by the model, so the entry has nothing to match.",
	"ExitPlanMode": "Pilot's plan mode ends with present_plan, which is never asked about, so the entry has nothing to match.",
}

// Entry maps one entry of effect to Pilot's rules (not yet validated), or
// returns the sentence that says why it cannot be mapped.
func Entry(entry string, effect permission.Effect, project, home string) ([]permission.Rule, string) {
	e := strings.TrimSpace(entry)
	tool, spec, hasSpec := strings.Cut(e, "(")
	tool = strings.TrimSpace(tool)
	if hasSpec {
		var ok bool
		if spec, ok = strings.CutSuffix(spec, ")"); !ok {
			return nil, "The entry " + quote(entry) + " opens a '(' it does not close: write it as Tool or Tool(specifier)."
		}
		spec = strings.TrimSpace(spec)
		if spec == "*" || spec == "" {
			hasSpec, spec = false, ""
		}
	}
	rule := func(t, p string) permission.Rule { return permission.Rule{Tool: t, Pattern: p, Effect: effect} }
	switch {
	case tool == "":
		return nil, "The entry " + quote(entry) + " names no tool: write it as Tool or Tool(specifier), such as Bash(npm test)."
	case strings.HasPrefix(tool, permission.MCPPrefix):
		return mcpEntry(entry, tool, hasSpec, effect)
	case tool == "Bash":
		if !hasSpec {
			return []permission.Rule{rule(permission.BashTool, "*")}, ""
		}
		pats, why := bashPatterns(spec)
		if why != "" {
			return nil, why
		}
		var out []permission.Rule
		for _, p := range pats {
			out = append(out, rule(permission.BashTool, p))
		}
		return out, ""
	case tool == "WebFetch":
		if !hasSpec {
			return []permission.Rule{rule(permission.WebFetchTool, "*")}, ""
		}
		host, ok := strings.CutPrefix(spec, "domain:")
		if !ok || strings.TrimSpace(host) == "" {
			return nil, "The entry " + quote(entry) + " is not WebFetch(domain:HOST), the one form Pilot maps: write the host it may fetch, such as WebFetch(domain:example.com)."
		}
		if strings.ContainsAny(host, "/@ :") {
			return nil, "The entry " + quote(entry) + " names no plain host after domain: (it holds a '/', '@', ':' or a space): write the host alone, such as WebFetch(domain:docs.example.com)."
		}
		return []permission.Rule{rule(permission.WebFetchTool, escapeExcept(strings.ToLower(host), '*'))}, ""
	case tool == "WebSearch":
		if hasSpec {
			return nil, "The entry " + quote(entry) + " narrows WebSearch with a specifier, which Pilot cannot map: Pilot's web_search rules name the search service's host (such as web_search \"api.search.brave.com\"); write WebSearch alone for every search."
		}
		return []permission.Rule{rule(toolname.WebSearch, "*")}, ""
	case tool == "Read", tool == "Edit", tool == "Write", tool == "MultiEdit":
		pats, why := pathPatterns(entry, spec, hasSpec, project, home)
		if why != "" {
			return nil, why
		}
		tools := map[string][]string{"Read": readTools, "Edit": {permission.Edits}, "Write": {toolname.WriteFile}, "MultiEdit": {toolname.MultiPatch}}[tool]
		var out []permission.Rule
		for _, t := range tools {
			for _, p := range pats {
				out = append(out, rule(t, p))
			}
		}
		return out, ""
	}
	if t, ok := bareOnly[tool]; ok {
		if hasSpec {
			return nil, "The entry " + quote(entry) + " narrows " + tool + " with a specifier, which Pilot cannot map: write " + tool + " alone for every call, or a Read rule on the paths."
		}
		return []permission.Rule{rule(t, "*")}, ""
	}
	if why, ok := missing[tool]; ok {
		return nil, why
	}
	return nil, "Pilot has no tool that Claude Code calls " + quote(tool) + ", so the entry " + quote(entry) + " has nothing to match: the tools Pilot maps are Bash, Read, Edit, Write, MultiEdit, Glob, Grep, LS, WebFetch, WebSearch, Task, TodoWrite and mcp__ tools."
}

// mcpEntry maps mcp__server, mcp__server__* and mcp__server__tool.
func mcpEntry(entry, tool string, hasSpec bool, effect permission.Effect) ([]permission.Rule, string) {
	if hasSpec {
		return nil, "The entry " + quote(entry) + " gives an MCP tool a specifier, which neither Claude Code nor Pilot matches: write mcp__server or mcp__server__tool alone."
	}
	rest := strings.TrimPrefix(tool, permission.MCPPrefix)
	server, name, hasTool := strings.Cut(rest, "__")
	if server == "" {
		return nil, "The entry " + quote(entry) + " names no MCP server: write mcp__server or mcp__server__tool."
	}
	if !hasTool || name == "*" {
		return []permission.Rule{{Tool: permission.MCPPrefix + server, Pattern: "*", Effect: effect}}, ""
	}
	if strings.Contains(name, "*") {
		return []permission.Rule{{Tool: permission.MCPPrefix + server, Pattern: escapeExcept(name, '*'), Effect: effect}}, ""
	}
	return []permission.Rule{{Tool: tool, Pattern: "*", Effect: effect}}, ""
}

// bashPatterns turns a Bash specifier into command patterns: '*' is the
// one wildcard (it matches any text, spaces and '/' included), every
// other character is itself; "prefix:*" (only at the end) is the prefix
// alone or followed by a space and more; a single trailing " *" is
// optional.
func bashPatterns(spec string) ([]string, string) {
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		prefix = strings.TrimSpace(prefix)
		if prefix == "" {
			return []string{"*"}, ""
		}
		if strings.Contains(prefix, "*") {
			return nil, "The entry Bash(" + spec + ") mixes the prefix form :* with another '*', which Claude Code does not read either: write Bash(prefix:*) or a pattern with '*' alone."
		}
		p := escapeExcept(prefix, '*')
		return []string{p, p + " *"}, ""
	}
	for strings.Contains(spec, "**") {
		spec = strings.ReplaceAll(spec, "**", "*")
	}
	p := escapeExcept(spec, '*')
	if bare, ok := strings.CutSuffix(p, " *"); ok && strings.Count(p, "*") == 1 {
		return []string{strings.TrimSpace(bare), p}, ""
	}
	return []string{p}, ""
}

// pathPatterns turns a Read/Edit/Write specifier into project-relative
// doublestar patterns, as the package documentation says.
func pathPatterns(entry, spec string, hasSpec bool, project, home string) ([]string, string) {
	if !hasSpec || spec == "**" || spec == "./**" || spec == "/**" {
		return []string{"**"}, ""
	}
	if strings.HasPrefix(spec, "!") {
		return nil, "The entry " + quote(entry) + " negates its pattern with '!', which a permission rule cannot do: write the paths it should match instead."
	}
	var rel string
	anchored := true
	switch {
	case strings.HasPrefix(spec, "//"), strings.HasPrefix(spec, "~/"):
		abs := spec[1:]
		if strings.HasPrefix(spec, "~/") {
			if home == "" {
				return nil, "The entry " + quote(entry) + " names a path under the home folder, which is not known here."
			}
			abs = filepath.ToSlash(home) + spec[1:]
		}
		root := strings.TrimSuffix(filepath.ToSlash(project), "/")
		if abs == root || abs == root+"/" {
			return []string{"**"}, ""
		}
		r, ok := strings.CutPrefix(abs, root+"/")
		if !ok || project == "" {
			return nil, "The entry " + quote(entry) + " names a path outside this project, where Pilot's file tools never reach, so it has nothing to match here (commands are kept out of private folders by the sandbox)."
		}
		rel = r
	case strings.HasPrefix(spec, "/"):
		rel = spec[1:]
	case strings.HasPrefix(spec, "./"):
		rel = spec[2:]
	default:
		rel = spec
		anchored = strings.Contains(strings.TrimSuffix(rel, "/"), "/")
	}
	dirOnly := strings.HasSuffix(rel, "/")
	rel = strings.Trim(rel, "/")
	if rel == "" {
		return []string{"**"}, ""
	}
	switch rel = path.Clean(rel); {
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return nil, "The entry " + quote(entry) + " climbs out of the project with '..', where Pilot's file tools never reach, so it has nothing to match here."
	case rel == ".":
		return []string{"**"}, ""
	}
	p := escapeExcept(rel, '*', '?', '[', ']')
	if !anchored {
		p = "**/" + p
	}
	switch {
	case strings.HasSuffix(p, "/**"):
		return []string{p}, ""
	case dirOnly:
		return []string{p + "/**"}, ""
	}
	return []string{p, p + "/**"}, ""
}

// escapeExcept quotes the pattern characters of s but those kept, which
// stay wildcards.
func escapeExcept(s string, keep ...byte) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(`*?[]{}\`, c) >= 0 && !strings.Contains(string(keep), string(c)) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func quote(s string) string { return "\u201c" + s + "\u201d" }

// sentence ends s with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".?!") {
		s += "."
	}
	return s
}
