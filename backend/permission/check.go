package permission

import (
	"slices"
	"strings"
)

// Check judges req under mode and the project's rules, in the order the
// package documentation gives.
func Check(mode Mode, rules []Rule, req Request) Decision {
	var sh *analysis
	var d Decision
	if req.Tool == BashTool {
		sh = analyse(req.Command)
		sh.compile(rules)
		d.Parts, d.Dynamic = sh.allowForms(), sh.dynamic != ""
	}
	decide := func(v Verdict, r *Rule, reason string) Decision {
		d.Verdict, d.Rule, d.Reason = v, r, reason
		return d
	}
	if r, reason := denied(rules, req, sh); r != nil {
		return decide(Refuse, r, reason)
	}
	if r, reason := asked(rules, req, sh); r != nil {
		if mode == ModeNone {
			return decide(Refuse, r, reason+", and no one can answer in approval mode none")
		}
		return decide(AskUser, r, reason)
	}
	if req.ReadOnly && !hostTool(req.Tool) {
		return decide(Run, nil, "read-only")
	}
	isCommand := req.Tool == BashTool || req.isMCP() || hostTool(req.Tool)
	switch mode {
	case ModePlan:
		if !hostTool(req.Tool) {
			return decide(Refuse, nil, PlanRefusal)
		}
	case ModeNone:
		return decide(Refuse, nil, "approval mode none: changes and commands are refused")
	case ModeAll:
		return decide(Run, nil, "approval mode all")
	}
	r, why := allowedBy(rules, req, sh)
	if r != nil {
		return decide(Run, r, "allowed by the rule "+r.String())
	}
	if mode == ModeEdits && !isCommand {
		return decide(Run, nil, "approval mode edits")
	}
	if mode == "" {
		mode = ModeAsk
	}
	reason := "approval mode " + string(mode)
	if why != "" {
		reason += ": " + why
	}
	return decide(AskUser, nil, reason)
}

// AlwaysAllow returns the rules that "always allow this" adds for req,
// each escaped to match its subject only: for run_bash one per distinct
// simple command, as Check will judge it next time (none when no rule can
// allow the command); the exact host for web_fetch and network; the tool
// for an MCP tool; one per path for a file change.
func AlwaysAllow(req Request) []Rule {
	switch {
	case req.Tool == BashTool:
		sh := analyse(req.Command)
		if sh.dynamic != "" {
			return nil
		}
		var out []Rule
		for _, f := range sh.allowForms() {
			out = append(out, Rule{Tool: BashTool, Pattern: Escape(f), Effect: Allow})
		}
		return out
	case req.isMCP():
		return []Rule{{Tool: req.Tool, Pattern: "*", Effect: Allow}}
	case hostTool(req.Tool):
		return []Rule{{Tool: req.Tool, Pattern: Escape(strings.ToLower(req.Host)), Effect: Allow}}
	}
	out := make([]Rule, 0, len(req.Paths))
	for _, p := range req.Paths {
		out = append(out, Rule{Tool: Edits, Pattern: Escape(p), Effect: Allow})
	}
	return out
}

// RuleStrings renders rules as people read them, for an approval card.
func RuleStrings(rs []Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// Withholds reports whether a deny rule for tool matches the
// project-relative path rel: a listing of tool leaves rel out.
func Withholds(rules []Rule, tool, rel string) bool {
	for _, r := range rules {
		if r.Effect == Deny && r.Tool == tool && matchPath(r.Pattern, rel) {
			return true
		}
	}
	return false
}

// allowForms are a command's distinct parts as allow rules match them.
func (a *analysis) allowForms() []string {
	out := make([]string, 0, len(a.parts))
	for _, p := range a.parts {
		if f := p.allowForm(); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// applies reports whether a rule is about req's tool.
func applies(r Rule, req Request) bool {
	if r.Tool == req.Tool {
		return true
	}
	if req.isMCP() {
		return r.Tool == MCPPrefix+req.Server
	}
	return r.Tool == Edits && req.Tool != BashTool && !hostTool(req.Tool) && !req.ReadOnly
}

// denied returns the deny rule that refuses req, and why. A command is
// refused when a rule matches the whole line or any of its parts, or,
// failing that, when a run_bash deny rule exists and the command's code
// cannot be seen.
func denied(rules []Rule, req Request, sh *analysis) (*Rule, string) {
	r, doubt := restricting(rules, Deny, req, sh)
	switch {
	case r != nil:
		return r, "denied by the rule " + r.String()
	case doubt != nil:
		return doubt, "refused: this command cannot be read for certain, as " + sh.opaque + ", so the rule " + doubt.String() + " may match it"
	}
	return nil, ""
}

// asked returns the ask rule that makes req asked, and why; it matches as
// a deny rule does, a command that cannot be read included.
func asked(rules []Rule, req Request, sh *analysis) (*Rule, string) {
	r, doubt := restricting(rules, Ask, req, sh)
	switch {
	case r != nil:
		return r, "the rule " + r.String() + " asks the user every time"
	case doubt != nil:
		return doubt, "this command cannot be read for certain, as " + sh.opaque + ", so the rule " + doubt.String() + " may match it and asks the user"
	}
	return nil, ""
}

// restricting returns the first rule of effect (deny or ask) that matches
// req, or else, for a command whose code cannot be seen, the first such
// rule on run_bash (doubt).
func restricting(rules []Rule, effect Effect, req Request, sh *analysis) (hit, doubt *Rule) {
	for i := range rules {
		r := &rules[i]
		if r.Effect != effect || !applies(*r, req) {
			continue
		}
		if denies(rules, i, req, sh) {
			return r, nil
		}
		if doubt == nil && sh != nil && sh.opaque != "" {
			doubt = r
		}
	}
	return nil, doubt
}

// denies reports whether the deny rule rules[i] matches req.
func denies(rules []Rule, i int, req Request, sh *analysis) bool {
	r := rules[i]
	switch {
	case req.isMCP():
		return matchCommand(r.Pattern, req.MCPTool)
	case hostTool(req.Tool):
		return matchHost(r.Pattern, req.Host)
	case sh != nil:
		return sh.pats[i].match(sh.line) || sh.pats[i].matchParts(sh)
	}
	for _, p := range req.Paths {
		if matchPath(r.Pattern, p) {
			return true
		}
	}
	return false
}

// allowedBy returns the allow rule that lets req run, or nil and, for a
// command, why none does. A command needs every part allowed, a change
// every path.
func allowedBy(rules []Rule, req Request, sh *analysis) (*Rule, string) {
	find := func(match func(i int) bool) *Rule {
		for i := range rules {
			if rules[i].Effect == Allow && applies(rules[i], req) && match(i) {
				return &rules[i]
			}
		}
		return nil
	}
	switch {
	case req.isMCP():
		return find(func(i int) bool { return matchCommand(rules[i].Pattern, req.MCPTool) }), ""
	case hostTool(req.Tool):
		return find(func(i int) bool { return matchHost(rules[i].Pattern, req.Host) }), ""
	case sh != nil:
		return allowedCommand(find, sh)
	}
	var first *Rule
	for _, p := range req.Paths {
		hit := find(func(i int) bool { return matchPath(rules[i].Pattern, p) })
		if hit == nil {
			return nil, ""
		}
		if first == nil {
			first = hit
		}
	}
	return first, ""
}

func allowedCommand(find func(func(int) bool) *Rule, sh *analysis) (*Rule, string) {
	if sh.dynamic != "" {
		return nil, "no rule can allow this command, as " + sh.dynamic
	}
	var first *Rule
	for i := range sh.parts {
		p := &sh.parts[i]
		hit := find(func(r int) bool { return sh.pats[r].matchAllow(p) })
		if hit == nil {
			if len(p.writes) > 0 && find(func(r int) bool { return sh.pats[r].match(subject(p.plain)) }) != nil {
				return nil, p.text + " writes to " + p.writes[0] + " through a redirection, and no rule names that redirection"
			}
			return nil, "no rule allows " + p.allowForm()
		}
		if first == nil {
			first = hit
		}
	}
	if first == nil {
		return nil, "the command runs nothing a rule can name"
	}
	return first, ""
}
