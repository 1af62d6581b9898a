package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"pilot/backend/approval"
	"pilot/backend/gate"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// question is what a call asks the gate, and how the question is shown
// when the gate says to ask the user.
type question struct {
	call gate.Call
	// card is the yes/no question shown; rejected what the model reads
	// when the user says no.
	card     wire.Approval
	rejected string
	// byRule replaces card and rejected when an ask rule asks (a read).
	byRule *shown
	// change, when set, shows a file change with its hunks instead
	// (AskChange); the user's decision is the grant's.
	change *wire.ChangeView
	// again asks even where the gate would let it run: a change shown
	// again because its file changed on disk.
	again bool
	// noAsk: no one can be asked (a helper's call); an ask refuses it.
	noAsk bool
	// check is the kind's own refusal once the gate did not refuse
	// (web_fetch's private addresses); "" lets the call go on.
	check func(gate.Decision) (outcome, bool)
	// undecided runs when the call ends at the gate, refused or stopped
	// (a change's hunks stay undecided).
	undecided func()
}

// shown is a question's card and what a no says.
type shown struct {
	card     wire.Approval
	rejected string
}

// grant is what the gate and the user let a call do.
type grant struct {
	d        gate.Decision
	state    store.Approval // auto, or what the user answered
	feedback string         // the user's words with the answer
	asked    bool           // the user was asked and said yes
	// change is the user's decision on a change; nil when the gate let
	// all of it through.
	change *wire.ChangeDecision
}

// permit is the one place the gate's verdict is acted on: refused (the
// model reads why), run, or asked (the user's answer, the rules "always
// allow" stores). It reports whether the call goes on; when not, the call
// has ended (refused, rejected with the user's words, or stopped). A call
// of no tool call (nil r: the budget) is asked without a card.
func (c *call) permit(q question) bool {
	t, ctx := c.t, c.ctx
	d := t.judge(ctx, q.call)
	if q.again && d.Verdict == gate.Run {
		d = gate.Judge(permission.ModeAsk, nil, q.call) // a stale change is always shown again
	}
	c.grant = grant{d: d, state: store.ApprovalAuto}
	g := &c.grant
	no := func(o outcome) bool {
		if q.undecided != nil {
			q.undecided()
		}
		c.tell(o)
		return false
	}
	switch {
	case d.Verdict == gate.Refuse, d.Verdict == gate.Ask && q.noAsk:
		return no(refusedBy(t.mode, d))
	}
	if q.check != nil {
		if o, ok := q.check(d); !ok {
			return no(o)
		}
	}
	if d.Verdict == gate.Run {
		return true
	}
	if q.change != nil {
		ans, err := c.askChange(ctx, q, d)
		if err != nil {
			return no(cancelled(false))
		}
		g.change, g.state, g.feedback, g.asked = ans.Change, approvalState(ans.Outcome), ans.Change.Feedback, true
		t.always(ctx, d, ans.Change.AlwaysAllow)
		return true
	}
	card, rejected := q.card, q.rejected
	if q.byRule != nil && gate.ByAskRule(d) {
		card, rejected = q.byRule.card, q.byRule.rejected
	}
	ans, err := c.ask(ctx, d, card)
	if err != nil {
		return no(cancelled(false))
	}
	g.feedback = ans.Command.Feedback
	if !ans.Command.Approve {
		return no(outcome{text: rejected + said(g.feedback), isError: true,
			status: wire.ToolRejected, approval: store.ApprovalRejected, feedback: g.feedback, refusedBy: store.RefusedUser})
	}
	t.always(ctx, d, ans.Command.AlwaysAllow)
	g.state, g.asked = store.ApprovalApproved, true
	return true
}

// judge decides a call through the gate under the session's mode and the
// project's rules, read now. Rules that cannot be read count as none: a
// call no rule allows asks. The rules read are also the ones listings
// withhold by (tools.Deps.Withheld).
func (t *turn) judge(ctx context.Context, c gate.Call) gate.Decision {
	rules, err := t.l.rules(context.WithoutCancel(ctx))
	if err != nil {
		t.l.m.log.Warn("reading permission rules", "err", err)
	}
	t.l.ruled.Store(&rules)
	c.Hook = hookSay(ctx)
	return gate.Judge(t.mode, rules, c)
}

// withheld is tools.Deps.Withheld: a listing of tool leaves out rel when a
// deny rule on tool matches it (the rules the gate read last).
func (l *live) withheld(tool, rel string) bool {
	rules := l.ruled.Load()
	return rules != nil && permission.Withholds(*rules, tool, rel)
}

// refusedBy is the outcome of a call the gate refused under mode: by a
// deny rule (named), or else by plan mode or the approval mode.
func refusedBy(mode permission.Mode, d gate.Decision) outcome {
	by := admitRefuser(mode)
	if d.Rule != nil {
		by = fmt.Sprintf("%s %s %q", store.RefusedRule, d.Rule.Tool, d.Rule.Pattern)
	}
	return refusedOutcome(d.Reason, by)
}

// refusedOutcome is the outcome of a call the gate refused; by says who
// (store.Refused*).
func refusedOutcome(text, by string) outcome {
	return outcome{text: text, isError: true, status: wire.ToolRejected, approval: store.ApprovalRejected, refusedBy: by}
}

// admitRefuser is who refused a call gate.Admit refused under mode: plan
// mode (a change or command), or the mode (present_plan outside plan mode).
func admitRefuser(mode permission.Mode) string {
	if mode == permission.ModePlan {
		return store.RefusedPlan
	}
	return store.RefusedMode
}

// card fills what every question shows: the kind the gate asks with, the
// call it belongs to (shown as waiting), the rules "always allow" would
// add, the ask rule that asks.
func (c *call) card(ctx context.Context, d gate.Decision, a *wire.Approval) {
	r := c.r
	a.Kind = d.Kind
	if a.ID == "" {
		a.ID = approval.NewID()
	}
	if r != nil {
		a.ToolCallID, a.Tool = r.use.ID, r.use.Name
		c.awaiting(ctx, a.ID)
	}
	a.AlwaysRules, a.NoAlways = permission.RuleStrings(d.Always), d.NoAlways
	if len(a.AlwaysRules) == 0 {
		a.AlwaysRules = nil
	}
	if gate.ByAskRule(d) {
		a.AskRule = d.Rule.String()
	}
}

// ask shows a as a yes/no approval of the decision's kind and waits for
// the user's answer.
func (c *call) ask(ctx context.Context, d gate.Decision, a wire.Approval) (approval.Answer, error) {
	t := c.t
	c.card(ctx, d, &a)
	return t.l.m.broker.Ask(ctx, t.l.id, a)
}

// askChange shows the change of q to the user and waits for the decision.
func (c *call) askChange(ctx context.Context, q question, d gate.Decision) (approval.Answer, error) {
	t := c.t
	a := q.card
	c.card(ctx, d, &a)
	return t.l.m.broker.AskChange(ctx, t.l.id, a, *q.change)
}

// always stores the rules the card showed, when the user chose "always
// allow" and the card offered it.
func (t *turn) always(ctx context.Context, d gate.Decision, chosen bool) {
	if chosen && len(d.Always) > 0 {
		t.l.addRules(context.WithoutCancel(ctx), d.Always)
	}
}

// awaiting shows the call as waiting for the user's decision.
func (c *call) awaiting(ctx context.Context, approvalID string) {
	t, r := c.t, c.r
	l := t.l
	if err := l.m.st.ToolCalls.SetStatus(context.WithoutCancel(ctx), r.rec.ID, wire.ToolAwaitingApproval); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status, r.view.ApprovalID = wire.ToolStatus(wire.ToolAwaitingApproval), approvalID
	l.emitTool(r.view)
	l.setState(AwaitingApproval)
}

// running shows the call as running again after a decision.
func (c *call) running(ctx context.Context) {
	t, r := c.t, c.r
	l := t.l
	l.setState(ToolExecuting)
	if r.view.Status == wire.ToolRunning {
		return
	}
	if err := l.m.st.ToolCalls.SetStatus(context.WithoutCancel(ctx), r.rec.ID, wire.ToolRunning); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status = wire.ToolStatus(wire.ToolRunning)
	l.emitTool(r.view)
}

// readCall describes a read-only call for the gate: the file or folder it
// reads (its "path" input; "." when it has none), project-relative. A path
// that reaches through a link inside the project is given as the place
// the kernel finds it at too (opened through the root), so a deny rule on
// either path matches.
func (t *turn) readCall(name string, input json.RawMessage) gate.Call {
	c := gate.Call{Tool: name, ReadOnly: true}
	var in struct {
		Path string `json:"path"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(input, &in) // a bad input is the tool's to report
	// A rule's pattern on skill is on skill names; a file of a skill
	// ("pdf/forms.md") is judged as the skill too.
	if name == tools.SkillTool {
		n := strings.TrimSpace(in.Name)
		c.Paths = []string{n}
		if skill, _, ok := strings.Cut(n, "/"); ok {
			c.Paths = append(c.Paths, skill)
		}
		return c
	}
	root := t.l.root
	p := strings.TrimSpace(in.Path)
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(root.Dir(), p); err == nil {
			p = rel
		}
	}
	rel := path.Clean(filepath.ToSlash(p))
	c.Paths = []string{rel}
	if w, ok := root.Where(rel); ok && w.Rel != rel {
		c.Paths = append(c.Paths, w.Rel)
	}
	return c
}
