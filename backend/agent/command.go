package agent

import (
	"context"
	"strings"

	"pilot/backend/approval"
	"pilot/backend/events"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/tools"
)

// runChange runs a change-making call: the tool builds its proposal, the
// policy or the user decides, and only then is anything applied.
func (t *turn) runChange(ctx context.Context, r *toolRun) {
	res, ok := t.execute(ctx, r)
	switch {
	case !ok:
	case res.IsError || res.Proposal == nil:
		r.out = outcome{text: res.Output, isError: res.IsError, status: statusOf(res.IsError)}
	case res.Proposal.Command != nil:
		t.runCommand(ctx, r, res.Proposal)
	case res.Proposal.MCP != nil:
		t.runMCP(ctx, r, res.Proposal)
	default:
		t.runFiles(ctx, r, res.Proposal)
	}
}

// permit judges a request under the session's mode and the project's
// rules. Rules that cannot be read count as none: the user is asked.
func (t *turn) permit(ctx context.Context, req permission.Request) permission.Decision {
	rules, err := t.l.rules(context.WithoutCancel(ctx))
	if err != nil {
		t.l.m.log.Warn("reading permission rules", "err", err)
	}
	return permission.Check(t.mode, rules, req)
}

// refused is the outcome of a call the policy refused.
func (t *turn) refused(d permission.Decision) outcome {
	text := "Not done: " + d.Reason + "."
	if t.mode == permission.ModeNone && d.Rule == nil {
		text += " No one can approve changes or commands in this run: describe what you would change or run instead, and the user can do it."
	}
	return outcome{text: text, isError: true, status: store.ToolRejected, approval: store.ApprovalRejected}
}

// awaiting shows the call as waiting for the user's decision.
func (t *turn) awaiting(ctx context.Context, r *toolRun, approvalID string) {
	l := t.l
	if err := l.m.st.SetToolStatus(context.WithoutCancel(ctx), r.rec.ID, store.ToolAwaitingApproval); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status, r.view.ApprovalID = string(store.ToolAwaitingApproval), approvalID
	l.emitTool(r.view)
	l.setState(AwaitingApproval)
}

// running shows the call as running again after a decision.
func (t *turn) running(ctx context.Context, r *toolRun) {
	l := t.l
	l.setState(ToolExecuting)
	if r.view.Status == string(store.ToolRunning) {
		return
	}
	if err := l.m.st.SetToolStatus(context.WithoutCancel(ctx), r.rec.ID, store.ToolRunning); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status = string(store.ToolRunning)
	l.emitTool(r.view)
}

// runCommand asks for (or applies the policy to) a command and runs it,
// streaming its output.
func (t *turn) runCommand(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	req := permission.Request{Tool: r.use.Name, Command: p.Command.Command}
	state, ok := t.askRun(ctx, r, req, events.Approval{Command: p.Command.Command,
		Cwd: p.Command.Dir, TimeoutSeconds: int(p.Command.Timeout.Seconds())}, "The user rejected this command; it was not run.")
	if !ok {
		return
	}
	t.running(ctx, r)
	bg := context.WithoutCancel(ctx)
	cp := t.beforeCommand(bg)
	res, err := l.registry.Apply(ctx, p, tools.ApplyOptions{OnOutput: func(chunk string) { l.m.out.output(l.id, r.use.ID, chunk) }})
	t.afterCommand(bg, r, cp, p.Command.Command)
	switch {
	case err != nil && ctx.Err() != nil:
		text := cancelled(true).text
		if res.Output != "" {
			text += "\nOutput so far:\n" + res.Output
		}
		r.out = outcome{text: text, isError: true, status: store.ToolCancelled, approval: state}
	case err != nil:
		r.out = outcome{text: "The command could not be run: " + err.Error(), isError: true, status: store.ToolError, approval: state}
	default:
		r.out = outcome{text: res.Output + said(r.out.feedback), isError: res.IsError, status: statusOf(res.IsError), approval: state, feedback: r.out.feedback}
	}
}

// askRun applies the policy to a command-like call (run_bash, an MCP
// tool) and asks the user where it says so, with a as the approval shown.
// It reports the approval state and whether to run; when not, r.out says
// why (refused, rejected with rejected and the feedback, or cancelled).
func (t *turn) askRun(ctx context.Context, r *toolRun, req permission.Request, a events.Approval, rejected string) (store.Approval, bool) {
	l := t.l
	d := t.permit(ctx, req)
	switch d.Verdict {
	case permission.Refuse:
		r.out = t.refused(d)
		return "", false
	case permission.Run:
		return store.ApprovalAuto, true
	}
	a.ID, a.ToolCallID, a.Tool = approval.NewID(), r.use.ID, r.use.Name
	a.AlwaysRules = permission.RuleStrings(permission.AlwaysAllow(req))
	t.awaiting(ctx, r, a.ID)
	ans, err := l.m.broker.AskCommand(ctx, l.id, a)
	if err != nil {
		r.out = cancelled(false)
		return "", false
	}
	if !ans.Command.Approve {
		r.out = outcome{text: rejected + said(ans.Command.Feedback), isError: true,
			status: store.ToolRejected, approval: store.ApprovalRejected, feedback: ans.Command.Feedback}
		return "", false
	}
	if ans.Command.AlwaysAllow {
		l.addRules(context.WithoutCancel(ctx), permission.AlwaysAllow(req))
	}
	r.out.feedback = ans.Command.Feedback
	return store.ApprovalApproved, true
}

// said renders the user's feedback for the model.
func said(feedback string) string {
	if f := strings.TrimSpace(feedback); f != "" {
		return "\nThe user said: " + f
	}
	return ""
}
