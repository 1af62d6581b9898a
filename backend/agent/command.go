package agent

import (
	"context"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
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
	r.view.Status, r.view.ApprovalID = wire.ToolStatus(store.ToolAwaitingApproval), approvalID
	l.emitTool(r.view)
	l.setState(AwaitingApproval)
}

// running shows the call as running again after a decision.
func (t *turn) running(ctx context.Context, r *toolRun) {
	l := t.l
	l.setState(ToolExecuting)
	if r.view.Status == wire.ToolRunning {
		return
	}
	if err := l.m.st.SetToolStatus(context.WithoutCancel(ctx), r.rec.ID, store.ToolRunning); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status = wire.ToolStatus(store.ToolRunning)
	l.emitTool(r.view)
}

// runCommand passes a command through the gate (asking the user where it
// says so) and runs it, in the session's sandbox where the gate says so,
// streaming its output. What the sandbox blocked is told after it.
func (t *turn) runCommand(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	c := p.Command
	status := l.m.opt.Sandbox.probe()
	call := gate.Call{Tool: r.use.Name, Command: c.Command, SandboxReady: status.Ready, Unsandboxed: c.Outside, Reason: c.Reason}
	a := wire.Approval{Command: c.Command, Cwd: c.Dir, TimeoutSeconds: int(c.Timeout.Seconds()), Reason: c.Reason}
	info := &wire.SandboxInfo{Outside: c.Outside, Reason: c.Reason}
	if !status.Ready && !c.Outside {
		a.NoSandbox = "The sandbox cannot start on this machine, so this command would run with your full rights: " + status.Why
		info.Unavailable = status.Why
	}
	rejected := "The user rejected this command; it was not run."
	if c.Outside {
		rejected = "The user did not let this command run outside the sandbox; it was not run. Run it in the sandbox (leave out sandbox: false), or do without it."
	}
	d := t.judge(ctx, call)
	state := store.ApprovalAuto
	switch d.Verdict {
	case gate.Refuse:
		r.out = refusedBy(t.mode, d)
		return
	case gate.Ask:
		var ok bool
		if state, ok = t.asked(ctx, r, d, a, rejected); !ok {
			return
		}
	}
	opt := tools.ApplyOptions{OnOutput: func(chunk string) { l.m.out.output(l.id, r.use.ID, chunk) }}
	var run *sandboxRun
	if d.Sandboxed {
		sess, err := l.sandbox()
		if err != nil {
			l.m.log.Warn("the session's sandbox", "session", l.id, "err", err)
			r.out = outcome{text: "The command was not run: " + err.Error() + ".", isError: true, status: store.ToolError, approval: state}
			return
		}
		opt.Sandbox, info.Sandboxed = sess, true
		run = t.startRun(ctx, r, c.Command)
	}
	t.running(ctx, r)
	t.saveSandbox(ctx, r, info)
	bg := context.WithoutCancel(ctx)
	cp := t.beforeCommand(bg)
	res, err := l.registry.Apply(ctx, p, opt)
	var refused []string // the proxy's refusals: the output does not hold them
	if run != nil {
		refused = run.end()
	}
	t.afterCommand(bg, r, cp, c.Command)
	if blocked := append(refused, res.Blocked...); len(blocked) > 0 {
		info.Blocked = blocked
		t.saveSandbox(ctx, r, info)
	}
	if len(refused) > 0 {
		res.Output += "\n\n" + strings.Join(refused, "\n")
	}
	switch {
	case err != nil && ctx.Err() != nil:
		text := cancelled(true).text
		if res.Output != "" {
			text += "\nOutput so far:\n" + res.Output
		}
		r.out = outcome{text: text, isError: true, status: store.ToolCancelled, approval: state}
	case err != nil:
		l.m.log.Warn("running a command", "session", l.id, "sandboxed", d.Sandboxed, "err", err)
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
