// Package permission decides whether a tool call may run without asking
// the user, must be asked about, or is refused.
//
// The answer comes from, in order:
//
//  1. a matching deny rule refuses the call (deny beats allow);
//  2. a read-only tool runs;
//  3. a matching allow rule lets the call run;
//  4. the session's mode: ask asks for every change and command, edits
//     applies file changes and asks for commands, all runs everything,
//     none refuses every change and command (headless runs with no one to
//     ask), plan refuses every change and command even where a rule
//     allows it (the agent looks and proposes a plan; the loop refuses
//     such calls before they are built); web_fetch, which changes
//     nothing, is asked for in plan mode as in ask.
//
// Rules are per project: a tool name (or Edits for every file-changing
// tool) and a doublestar pattern matched against the command of run_bash
// or against each project-relative path of a file change. An MCP tool
// (mcp__<server>__<tool>) is judged like a command: a rule names the tool
// with the pattern "*", or the server (mcp__<server>) with a pattern on the
// server's tool names; the edits mode asks. web_fetch is judged like a
// command too, with rules on the host it reads (a doublestar pattern such
// as "*.github.com"). The store keeps them; this package only matches.
package permission

import (
	"errors"
	"fmt"
	"strings"
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
)

// Edits is the rule tool that stands for every file-changing tool.
const Edits = "edits"

// BashTool is the tool whose rules match commands rather than paths.
const BashTool = "run_bash"

// WebFetchTool is the tool whose rules match host names.
const WebFetchTool = "web_fetch"

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

// ErrInvalidRule is returned by Validate.
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

// Request is a tool call to judge. Command is set for run_bash, Paths
// (project-relative, '/'-separated) for file changes, Server and MCPTool
// (the server's own name of the tool) for an MCP tool, Host for web_fetch.
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
type Decision struct {
	Verdict Verdict
	Rule    *Rule
	Reason  string
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

// Check judges req under mode and the project's rules.
func Check(mode Mode, rules []Rule, req Request) Decision {
	for i := range rules {
		if rules[i].Effect == Deny && denies(rules[i], req) {
			return Decision{Verdict: Refuse, Rule: &rules[i], Reason: "denied by the rule " + rules[i].String()}
		}
	}
	if req.ReadOnly {
		return Decision{Verdict: Run, Reason: "read-only"}
	}
	if mode == ModePlan && req.Tool != WebFetchTool {
		return Decision{Verdict: Refuse, Reason: PlanRefusal}
	}
	if r := allowedBy(rules, req); r != nil {
		return Decision{Verdict: Run, Rule: r, Reason: "allowed by the rule " + r.String()}
	}
	isCommand := req.Tool == BashTool || req.isMCP() || req.Tool == WebFetchTool
	switch mode {
	case ModeAll:
		return Decision{Verdict: Run, Reason: "approval mode all"}
	case ModeEdits:
		if !isCommand {
			return Decision{Verdict: Run, Reason: "approval mode edits"}
		}
	case ModeNone:
		return Decision{Verdict: Refuse, Reason: "approval mode none: changes and commands are refused"}
	}
	return Decision{Verdict: AskUser, Reason: "approval mode " + string(mode)}
}

// applies reports whether a rule is about req's tool.
func applies(r Rule, req Request) bool {
	if r.Tool == req.Tool {
		return true
	}
	if req.isMCP() {
		return r.Tool == MCPPrefix+req.Server
	}
	return r.Tool == Edits && req.Tool != BashTool && req.Tool != WebFetchTool && !req.ReadOnly
}

// mcpMatch matches an MCP rule: "*" on the tool's own rule, or a pattern
// on the server's tool names on the server's rule.
func mcpMatch(r Rule, req Request) bool {
	return matchCommand(r.Pattern, req.MCPTool)
}

// denies reports whether the deny rule r matches req: the command or any of
// its parts, or any path.
func denies(r Rule, req Request) bool {
	if !applies(r, req) {
		return false
	}
	if req.isMCP() {
		return mcpMatch(r, req)
	}
	if req.Tool == WebFetchTool {
		return matchHost(r.Pattern, req.Host)
	}
	if req.Tool == BashTool {
		if matchCommand(r.Pattern, req.Command) {
			return true
		}
		for _, part := range splitCommand(req.Command) {
			if matchCommand(r.Pattern, part) {
				return true
			}
		}
		return false
	}
	for _, p := range req.Paths {
		if matchPath(r.Pattern, p) {
			return true
		}
	}
	return false
}

// allowedBy returns the allow rule that lets req run, or nil. A command
// must have every part allowed, and one with command substitution is never
// allowed by a rule; a change must have every path allowed.
func allowedBy(rules []Rule, req Request) *Rule {
	if req.isMCP() {
		for i := range rules {
			if rules[i].Effect == Allow && applies(rules[i], req) && mcpMatch(rules[i], req) {
				return &rules[i]
			}
		}
		return nil
	}
	var subjects []string
	match := matchPath
	switch req.Tool {
	case WebFetchTool:
		subjects, match = []string{req.Host}, matchHost
	case BashTool:
		if strings.Contains(req.Command, "$(") || strings.Contains(req.Command, "`") {
			return nil
		}
		subjects, match = splitCommand(req.Command), matchCommand
	default:
		subjects = req.Paths
	}
	if len(subjects) == 0 {
		return nil
	}
	var first *Rule
	for _, s := range subjects {
		var hit *Rule
		for i := range rules {
			if rules[i].Effect == Allow && applies(rules[i], req) && match(rules[i].Pattern, s) {
				hit = &rules[i]
				break
			}
		}
		if hit == nil {
			return nil
		}
		if first == nil {
			first = hit
		}
	}
	return first
}
