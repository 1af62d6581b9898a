// Package gate decides every tool call the agent makes, read-only ones
// included, before the call has any effect: before a file is read or
// written, a command runs, an MCP server is called, or a host name is
// resolved. The loop describes the call (Call); the gate answers run,
// refuse (with the sentence for the model) or ask the user with a typed
// approval kind (Decision).
//
// The order is fixed: deny rules, then the mode, then allow rules, then
// asking. The matching of rules against commands, paths and hosts is
// permission.Check's; the gate adds what is not a rule: plan mode's
// refusals, the kind of approval to ask, the rules "always allow" would
// add, the session's earlier yes to a web_fetch or web_search host, and whether a
// private address may be opened (only by a rule that names the host).
//
// The OS sandbox of run_bash (backend/sandbox) is one more verdict: where
// it can start, a command runs sandboxed (Decision.Sandboxed) without
// asking in edits and all modes and after the user's yes in ask mode; one
// that asks to run outside it (sandbox: false) asks every time but in mode
// all, with the kind wire.ApprovalOutsideSandbox. A sandboxed command's
// connections are judged here too, by host (Call.Tool NetworkTool).
package gate

import (
	"pilot/backend/permission"
	"pilot/backend/toolname"
	"pilot/backend/wire"
)

// Verdict is what becomes of a call.
type Verdict int

const (
	// Run: the call goes ahead without asking.
	Run Verdict = iota + 1
	// Refuse: the call is not made; Decision.Reason says why.
	Refuse
	// Ask: the user decides, through an approval of Decision.Kind.
	Ask
)

// PresentPlanTool is plan mode's tool that ends a turn with a plan.
const PresentPlanTool = toolname.PresentPlan

// Call describes what a tool call would do, built from its input before it
// has any effect.
type Call struct {
	Tool     string
	ReadOnly bool
	// Paths are project-relative, '/'-separated: the files a change
	// writes, or the file or folder a read-only call reads ("." for the
	// project). A path reached through a link inside the project is given
	// both ways, so a deny rule on either matches.
	Paths   []string
	Command string // run_bash
	Server  string // an MCP call: the server
	MCPTool string // and the server's own name of the tool
	Host    string // web_fetch: the host, lower case, from the parsed URL; web_search: the search service's
	// HostApproved: the user allowed Host earlier in this session.
	HostApproved bool
	// Budget: not a tool call but the loop's question whether the turn may
	// go past the session's budget (Tool is empty).
	Budget bool
	// SandboxReady: the session's sandbox can start on this machine
	// (sandbox.Probe), so a command may run confined.
	SandboxReady bool
	// Unsandboxed: the command asks to run outside the sandbox (run_bash's
	// sandbox: false), for Reason, the model's sentence.
	Unsandboxed bool
	Reason      string
	// Hook is what the call's PreToolUse hooks decided (settings.json
	// hooks, backend/hooks): allow turns an ask into run, ask turns a run
	// into an ask; neither touches a refusal (a deny rule, plan mode) nor
	// lets a command out of the sandbox without asking. "" or none: no
	// say. A hook's deny never reaches the gate: the call is not made.
	Hook wire.HookDecision
}

// Decision is the gate's answer.
type Decision struct {
	Verdict Verdict
	// Reason is the full sentence the model reads when the call is
	// refused, and why it runs or asks otherwise.
	Reason string
	// Rule is the rule that decided, if one did.
	Rule *permission.Rule
	// Kind is the approval to ask (wire.Approval*), set with Ask.
	Kind wire.ApprovalKind
	// Always are the rules "always allow" adds, shown on the card: set
	// only when they would let this very call run next time. NoAlways
	// says why "always allow" is not offered when the kind has it.
	Always   []permission.Rule
	NoAlways string
	// Private: a web_fetch (or a sandboxed command's connection) may open
	// a private, loopback or link-local address or one of this machine's
	// own, because a rule names the host without wildcards.
	Private bool
	// Sandboxed: the command runs in the session's sandbox, at once
	// (Run) or once the user says yes (Ask).
	Sandboxed bool
}

// Admit refuses, before a call is even built, what the mode never allows
// whatever its arguments: a change-making tool in plan mode, and
// present_plan outside it. It returns the sentence for the model, or "".
func Admit(mode permission.Mode, tool string, readOnly bool) string {
	plan := mode == permission.ModePlan
	switch {
	case plan && !readOnly:
		return "Not run: " + permission.PlanRefusal + ". Keep to the read-only tools and end your turn with present_plan."
	case !plan && tool == PresentPlanTool:
		return "Not run: present_plan is only for plan mode, and this session is in " + string(mode) + " mode. Go ahead with the work; changes and commands are approved as the mode says."
	}
	return ""
}

// Judge decides c under the session's mode and the project's rules, then
// lets the call's hooks have their say (Call.Hook). It does nothing but
// compute: no file, command, network or store is touched.
func Judge(mode permission.Mode, rules []permission.Rule, c Call) Decision {
	d := judge(mode, rules, c)
	switch {
	case c.Hook == wire.HookAllow && d.Verdict == Ask && !c.Unsandboxed && !c.Budget && c.Tool != RememberTool:
		d.Verdict, d.Reason = Run, "a PreToolUse hook allowed it"
		d.Kind, d.Always, d.NoAlways = "", nil, ""
	case c.Hook == wire.HookAsk && d.Verdict == Run && !c.Budget:
		d.Verdict, d.Reason, d.Kind = Ask, "a PreToolUse hook asked for the user's decision", kind(c)
		if c.ReadOnly && !permission.WebTool(c.Tool) {
			d.Kind = wire.ApprovalCommand // a read has no change to show: asked as a yes or no
		}
		d.NoAlways = "\"Always allow\" is not offered: a PreToolUse hook asks about this call, so it is asked every time."
	}
	return d
}

// judge is Judge without the hooks' say.
func judge(mode permission.Mode, rules []permission.Rule, c Call) Decision {
	switch {
	case c.Budget:
		return Decision{Verdict: Ask, Kind: wire.ApprovalBudget, Reason: "the session reached its budget"}
	case c.Tool == NetworkTool:
		return judgeNetwork(mode, rules, c)
	case c.Tool == permission.BashTool && c.Unsandboxed:
		return judgeOutside(mode, rules, c)
	case c.Tool == RememberTool:
		return judgeRemember(mode, rules, c)
	}
	req := permission.Request{Tool: c.Tool, ReadOnly: c.ReadOnly && !permission.WebTool(c.Tool),
		Command: c.Command, Paths: c.Paths, Server: c.Server, MCPTool: c.MCPTool, Host: c.Host}
	d := permission.Check(mode, rules, req)
	denied := d.Verdict == permission.Refuse && d.Rule != nil && d.Rule.Effect == permission.Deny
	if why := Admit(mode, c.Tool, c.ReadOnly); why != "" && !denied {
		return Decision{Verdict: Refuse, Reason: why}
	}
	out := Decision{Rule: d.Rule, Reason: d.Reason}
	switch d.Verdict {
	case permission.Refuse:
		out.Verdict, out.Reason = Refuse, refusal(mode, d)
		return out
	case permission.Run:
		out.Verdict = Run
	default:
		out.Verdict = Ask
		if permission.WebTool(c.Tool) && c.HostApproved && !ByAskRule(out) {
			out.Verdict, out.Reason = Run, "the user allowed "+c.Host+" earlier in this session"
		}
	}
	if c.Tool == permission.WebFetchTool {
		for i := range rules {
			if permission.NamesHost(rules[i], c.Host) {
				out.Private = true
				break
			}
		}
	}
	if out.Verdict == Ask {
		out.Kind = kind(c)
		out.Always, out.NoAlways = always(req)
		if ByAskRule(out) {
			out.Always, out.NoAlways = nil, "\"Always allow\" is not offered: the rule "+out.Rule.String()+" asks every time."
		}
	}
	if c.Tool == permission.BashTool && c.SandboxReady {
		sandboxed(mode, &out)
	}
	return out
}

// ByAskRule reports whether d asks because an ask rule matched: then
// nothing but the user's answer lets the call run (no mode, allow rule,
// sandbox or earlier yes).
func ByAskRule(d Decision) bool {
	return d.Verdict == Ask && d.Rule != nil && d.Rule.Effect == permission.Ask
}

// kind is the approval a call asks with.
func kind(c Call) wire.ApprovalKind {
	switch {
	case c.ReadOnly && !permission.WebTool(c.Tool):
		return wire.ApprovalCommand // a read an ask rule asks about: shown as "tool path"
	case c.Server != "":
		return wire.ApprovalMCP
	case permission.WebTool(c.Tool):
		return wire.ApprovalFetch // web_search's card says it searches
	case c.Tool == permission.BashTool:
		return wire.ApprovalCommand
	}
	return wire.ApprovalChange
}

// always returns the rules "always allow" adds for req, or why it is not
// offered: the rules must let this very call run by themselves, or
// storing them would only ask again next time.
func always(req permission.Request) ([]permission.Rule, string) {
	rs := permission.AlwaysAllow(req)
	if len(rs) > 0 && permission.Check(permission.ModeAsk, rs, req).Verdict == permission.Run {
		return rs, ""
	}
	if req.Tool == permission.BashTool {
		return nil, "\"Always allow\" is not offered: no rule can allow this command, so it is asked every time (commands that build or hide code, such as command substitution, eval or sh -c, always are)."
	}
	return nil, "\"Always allow\" is not offered: no rule can allow this call, so it is asked every time."
}

// refusal is the sentence the model reads for a refused call.
func refusal(mode permission.Mode, d permission.Decision) string {
	text := "Not done: " + d.Reason + "."
	if mode == permission.ModeNone && d.Rule == nil {
		text += " No one can approve changes or commands in this run: describe what you would change or run instead, and the user can do it."
	}
	return text
}
