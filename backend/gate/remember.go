package gate

import (
	"pilot/backend/permission"
	"pilot/backend/toolname"
	"pilot/backend/wire"
)

// RememberTool adds a line to the user's own instruction file, outside
// the project.
const RememberTool = toolname.Remember

// NoAlwaysRemember is why "always allow" is not offered for remember.
const NoAlwaysRemember = "\"Always allow\" is not offered: remember changes your own instruction file, outside the project, so it is asked every time."

// judgeRemember: a line for the user's own instruction file is what every
// later session of every project reads, so only the user's yes or the
// mode all writes it. Edits mode, allow rules and a hook's allow cover
// the project's files, not this one; a deny rule on remember refuses it,
// plan mode and mode none refuse it as any change.
func judgeRemember(mode permission.Mode, rules []permission.Rule, c Call) Decision {
	req := permission.Request{Tool: RememberTool, Paths: c.Paths}
	if d := permission.Check(permission.ModeAsk, rules, req); d.Verdict == permission.Refuse {
		return Decision{Verdict: Refuse, Rule: d.Rule, Reason: refusal(mode, d)}
	}
	if why := Admit(mode, c.Tool, false); why != "" {
		return Decision{Verdict: Refuse, Reason: why}
	}
	switch mode {
	case permission.ModeNone:
		return Decision{Verdict: Refuse, Reason: "Not done: approval mode none: no one can approve a change to the user's own instructions in this run. Tell the user the line instead."}
	case permission.ModeAll:
		return Decision{Verdict: Run, Reason: "approval mode all"}
	}
	return Decision{Verdict: Ask, Kind: wire.ApprovalChange, Reason: "remember changes the user's own instructions", NoAlways: NoAlwaysRemember}
}
