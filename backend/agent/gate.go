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
	"pilot/backend/wire"
)

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

// ask shows a as an approval of the decision's kind, with the rules
// "always allow" would add, and waits for the user's answer.
func (t *turn) ask(ctx context.Context, r *toolRun, d gate.Decision, a wire.Approval) (approval.Answer, error) {
	a.Kind = d.Kind
	if a.ID == "" {
		a.ID = approval.NewID()
	}
	if r != nil {
		a.ToolCallID, a.Tool = r.use.ID, r.use.Name
		t.awaiting(ctx, r, a.ID)
	}
	a.AlwaysRules, a.NoAlways = permission.RuleStrings(d.Always), d.NoAlways
	if len(a.AlwaysRules) == 0 {
		a.AlwaysRules = nil
	}
	return t.l.m.broker.Ask(ctx, t.l.id, a)
}

// always stores the rules the card showed, when the user chose "always
// allow" and the card offered it.
func (t *turn) always(ctx context.Context, d gate.Decision, chosen bool) {
	if chosen && len(d.Always) > 0 {
		t.l.addRules(context.WithoutCancel(ctx), d.Always)
	}
}

// permitted passes a command-like call (run_bash, an MCP tool) through the
// gate and asks the user where it says so, with a as the approval shown.
// It reports the approval state and whether to run; when not, r.out says
// why (refused, rejected with rejected and the feedback, or cancelled).
func (t *turn) permitted(ctx context.Context, r *toolRun, c gate.Call, a wire.Approval, rejected string) (store.Approval, bool) {
	d := t.judge(ctx, c)
	switch d.Verdict {
	case gate.Refuse:
		r.out = refusedBy(t.mode, d)
		return "", false
	case gate.Run:
		return store.ApprovalAuto, true
	}
	return t.asked(ctx, r, d, a, rejected)
}

// asked asks the user about a call the gate said to ask about, and
// records the answer: rejected (with the user's feedback) in r.out, or
// approved, storing the rules "always allow" showed when chosen.
func (t *turn) asked(ctx context.Context, r *toolRun, d gate.Decision, a wire.Approval, rejected string) (store.Approval, bool) {
	ans, err := t.ask(ctx, r, d, a)
	if err != nil {
		r.out = cancelled(false)
		return "", false
	}
	if !ans.Command.Approve {
		r.out = outcome{text: rejected + said(ans.Command.Feedback), isError: true,
			status: store.ToolRejected, approval: store.ApprovalRejected, feedback: ans.Command.Feedback, refusedBy: store.RefusedUser}
		return "", false
	}
	t.always(ctx, d, ans.Command.AlwaysAllow)
	r.out.feedback = ans.Command.Feedback
	return store.ApprovalApproved, true
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
	}
	_ = json.Unmarshal(input, &in) // a bad input is the tool's to report
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
