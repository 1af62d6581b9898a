package gate

import (
	"pilot/backend/permission"
	"pilot/backend/wire"
)

// NetworkTool is the rule tool of a sandboxed command's connections
// (`allow network HOST`).
const NetworkTool = permission.NetworkTool

// NoAlwaysOutside is why "always allow" is not offered for a command
// asking to run outside the sandbox.
const NoAlwaysOutside = "\"Always allow\" is not offered: running a command outside the sandbox, with your full rights, is asked every time."

// sandboxed turns a command's decision, where the sandbox can start, into
// the sandbox's: it runs confined without asking in edits mode (a rule or
// mode all already ran it), and asks in ask mode and then runs confined.
func sandboxed(mode permission.Mode, d *Decision) {
	switch d.Verdict {
	case Refuse:
		return
	case Ask:
		if mode == permission.ModeEdits && !ByAskRule(*d) {
			d.Verdict, d.Kind, d.Always, d.NoAlways = Run, "", nil, ""
			d.Reason = "approval mode edits: the command runs in the sandbox"
		}
	}
	d.Sandboxed = true
}

// judgeOutside decides a command that asks to run outside the sandbox
// (sandbox: false): deny rules and the modes that refuse commands first,
// then mode all runs it; every other mode asks each time, allow rules
// included, since a rule allows a command, not the user's full rights.
func judgeOutside(mode permission.Mode, rules []permission.Rule, c Call) Decision {
	if c.Reason == "" {
		return Decision{Verdict: Refuse, Reason: "Not run: sandbox: false needs a reason, the sentence the user reads before letting the command run outside the sandbox. Call run_bash again with reason set, or without sandbox: false to run it in the sandbox."}
	}
	inner := c
	inner.Unsandboxed, inner.SandboxReady = false, false
	d := Judge(mode, rules, inner)
	switch {
	case d.Verdict == Refuse:
		return d
	case mode == permission.ModeAll && !ByAskRule(d):
		return Decision{Verdict: Run, Reason: "approval mode all: the command runs outside the sandbox"}
	case mode == permission.ModePlan:
		return Decision{Verdict: Refuse, Reason: "Not run: plan mode runs only read-only commands, and only in the sandbox. Call run_bash without sandbox: false, or present your plan."}
	}
	return Decision{Verdict: Ask, Kind: wire.ApprovalOutsideSandbox, NoAlways: NoAlwaysOutside,
		Reason: "the command asks to run outside the sandbox: " + c.Reason}
}

// judgeNetwork decides a sandboxed command's connection to c.Host: a deny
// rule refuses it, an allow rule, mode all or the user's earlier yes in
// this session let it through, none refuses, and the rest asks; "always"
// adds `allow network HOST`. A private address opens only for a network
// rule that names the host exactly, as for web_fetch (whose rules are
// separate: they do not open commands' connections).
func judgeNetwork(mode permission.Mode, rules []permission.Rule, c Call) Decision {
	req := permission.Request{Tool: NetworkTool, Host: c.Host}
	d := permission.Check(mode, rules, req)
	out := Decision{Rule: d.Rule, Reason: d.Reason}
	for i := range rules {
		if permission.NamesHostFor(NetworkTool, rules[i], c.Host) {
			out.Private = true
			break
		}
	}
	switch {
	case d.Verdict == permission.Refuse:
		out.Verdict = Refuse
		out.Reason = "Not allowed: the sandbox refused the connection to " + c.Host + ": " + d.Reason + "."
	case d.Verdict == permission.Run:
		out.Verdict = Run
	case c.HostApproved:
		out.Verdict, out.Reason = Run, "the user allowed "+c.Host+" earlier in this session"
	default:
		out.Verdict, out.Kind = Ask, wire.ApprovalNetwork
		out.Always, out.NoAlways = always(req)
	}
	return out
}
