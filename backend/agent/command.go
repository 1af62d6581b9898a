package agent

import (
	"context"
	"strings"

	"pilot/backend/events"
	"pilot/backend/gate"
	"pilot/backend/store"
	"pilot/backend/tools"
)

// runChange runs a change-making call: the tool builds its proposal (which
// has no effect), the gate or the user decides, and only then is anything
// applied.
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

// runCommand passes a command through the gate (asking the user where it
// says so) and runs it, streaming its output.
func (t *turn) runCommand(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	state, ok := t.permitted(ctx, r, gate.Call{Tool: r.use.Name, Command: p.Command.Command}, events.Approval{Command: p.Command.Command,
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

// said renders the user's feedback for the model.
func said(feedback string) string {
	if f := strings.TrimSpace(feedback); f != "" {
		return "\nThe user said: " + f
	}
	return ""
}
