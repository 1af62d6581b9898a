// Package permission decides whether a tool call may run without asking
// the user, must be asked about, or is refused.
//
// The answer comes from, in order:
//
//  1. a matching deny rule refuses the call, read-only calls included
//     (deny beats everything);
//  2. a read-only tool runs;
//  4. the session's mode: plan refuses every change and command (the
//     agent looks and proposes a plan; web_fetch, which changes nothing,
//     goes on to the rules and is asked for), none refuses every change,
//     command, MCP call and fetch (headless runs with no one to ask;
//     allow rules do not override it), all runs everything;
//  5. a matching allow rule lets the call run;
//  6. the edits mode applies file changes;
//  7. everything else is asked.
//
// Rules are per project: a tool name (or Edits for every file-changing
// tool) and a doublestar pattern. A file tool's rule is matched against
// each project-relative path of the call: the paths a change writes, the
// file read_file reads, the folder list_files, glob and grep look in. An
// Edits rule applies to changes only, never to reads; Withholds lets the
// listing tools hide the paths a deny rule covers. An MCP tool
// (mcp__<server>__<tool>) is judged like a command: a rule names the tool
// with the pattern "*", or the server (mcp__<server>) with a pattern on
// the server's tool names; the edits mode asks. web_fetch is judged like
// a command too, with rules on the host it reads (a doublestar pattern
// such as "*.github.com"); NamesHost tells whether a rule names a host
// without wildcards, as a private address needs. A sandboxed command's
// connection through the proxy is a request of NetworkTool, judged the
// same way by the rules of network on its host: `allow network
// registry.npmjs.org`, `deny network *`. web_fetch rules and network rules
// are kept apart: neither opens the other's hosts.
//
// A run_bash command is judged by its bash syntax tree (see shell.go):
// every simple command in it is a part, and an allow rule must match
// every part; a deny rule refuses the command when it matches any part.
// A command name with a folder (/bin/rm) is matched as written by allow
// rules, so "rm *" does not allow /tmp/x/rm and "./gradlew *" keeps
// working, and also without its folder by deny rules, so "rm *" refuses
// /bin/rm. Wrappers (env, sudo, nice, timeout, xargs, find -exec, ...)
// are looked through: the wrapper's whole line and the command it runs
// are both parts. A command that writes a file through a redirection
// (>, >>, >|, &>, <>; not 2>&1 nor /dev/null) is allowed only by a rule
// whose pattern holds the redirection ('>'); its target is judged as
// part of the command's text, never against file rules: the command
// sandbox, not the rules, confines what a command writes. A command the
// parser cannot read, or one that builds code when it runs (eval, sh -c,
// a variable as the command name, ...), is never allowed by a rule, and
// when its code cannot be seen at all every deny rule on run_bash
// refuses it. The store keeps rules; this package only validates and
// matches them.
package permission

import (
	"errors"
	"fmt"
	"strings"

	"pilot/backend/toolname"
)

// Mode is a session's approval mode.
type Mode string

const (
	ModeAsk   Mode = "ask"
	ModeEdits Mode = "edits"
	ModeAll   Mode = "all"
	ModeNone  Mode = "none"
	// ModePlan: read-only tools only; the turn ends with a plan.
	ModePlan Mode = "plan"
)

// PlanRefusal is what the model reads when it calls a change-making tool
// in plan mode.
const PlanRefusal = "plan mode: only read-only tools run until the user approves a plan, so nothing was changed or run"

// Effect is what a rule does.
type Effect string

const (
	Allow Effect = "allow"
	Deny  Effect = "deny"
	// Ask: a matching call is always asked (never stored: ask rules come
	// from settings files).
	Ask Effect = "ask"
)

// Edits is the rule tool that stands for every file-changing tool.
const Edits = "edits"

// BashTool is the tool whose rules match commands rather than paths.
const BashTool = toolname.RunBash

// WebFetchTool is the tool whose rules match host names.
const WebFetchTool = toolname.WebFetch

// WebSearchTool's rules match host names too: the search service's host
// (the query goes there, whatever it asks about).
const WebSearchTool = toolname.WebSearch

// NetworkTool is the rule tool of a sandboxed command's connections
// through the proxy; its patterns are host names, like web_fetch's, and
// it is no tool the model calls.
const NetworkTool = "network"

// hostTool reports whether tool's rules match host names.
func hostTool(tool string) bool { return WebTool(tool) || tool == NetworkTool }

// WebTool reports whether tool is one the model calls to reach the web
// (web_fetch, web_search): judged by host, asked even in edits mode.
func WebTool(tool string) bool { return tool == WebFetchTool || tool == WebSearchTool }

// Verdict is the outcome of Check.
type Verdict int

const (
	// Run: the call goes ahead without asking.
	Run Verdict = iota + 1
	// AskUser: the user must decide.
	AskUser
	// Refuse: the call is refused without asking.
	Refuse
)

// ErrInvalidRule is what every error of Validate wraps (errors.Is).
var ErrInvalidRule = errors.New("the rule is not valid")

// Rule allows or denies calls of Tool whose subject matches Pattern.
type Rule struct {
	Tool    string
	Pattern string
	Effect  Effect
}

// String renders a rule as people read it: `allow run_bash "go test *"`.
func (r Rule) String() string { return fmt.Sprintf("%s %s %q", r.Effect, r.Tool, r.Pattern) }

// MCPPrefix starts the name of every MCP tool.
const MCPPrefix = "mcp__"

// Request is a tool call to judge. Command is set for run_bash; Paths
// (project-relative, '/'-separated) for a file tool: the files a change
// writes, the file read_file reads, the folder list_files, glob or grep
// looks in; Server and MCPTool (the server's own name of the tool) for an
// MCP tool; Host for web_fetch and NetworkTool (lower case, no port).
type Request struct {
	Tool     string
	ReadOnly bool
	Command  string
	Paths    []string
	Server   string
	MCPTool  string
	Host     string
}

func (r Request) isMCP() bool { return r.Server != "" }

// Decision is Check's answer; Rule is the rule that decided, if one did.
// For run_bash, Parts are the simple commands the line runs, as allow
// rules match them, and Dynamic says that no rule can allow the line (it
// builds code at run time, writes through a redirection of a compound
// command, or cannot be parsed): it is asked, or runs by its mode.
type Decision struct {
	Verdict Verdict
	Rule    *Rule
	Reason  string
	Parts   []string
	Dynamic bool
}

// ParseMode reads a mode; "" is ask.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAsk, nil
	case ModeAsk, ModeEdits, ModeAll, ModeNone, ModePlan:
		return m, nil
	}
	return "", fmt.Errorf("unknown approval mode %q: use plan, ask, edits, all or none", s)
}
