package agent

import (
	"context"
	"encoding/json"
	"strings"

	"pilot/backend/gate"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// commandKind: a shell command (run_bash), run in the session's sandbox
// where the gate says so, its output streamed; what the sandbox blocked
// is told after it. A background command starts a job (runJob).
var commandKind = kind{proposes: true, question: commandQuestion, effect: runCommand,
	failed: "The command could not be run: ", streams: true}

// commandQuestion asks the gate about the command, in the sandbox or
// outside it.
func commandQuestion(c *call) (question, bool) {
	l, r, cmd := c.t.l, c.r, c.proposal.Command
	if cmd.Background {
		if full := l.jobs.jobsFull(); full != "" {
			c.fail(full, false)
			return question{}, false
		}
	}
	status := l.m.opt.Sandbox.probe()
	q := question{call: gate.Call{Tool: r.use.Name, Command: cmd.Command, SandboxReady: status.Ready, Unsandboxed: cmd.Outside, Reason: cmd.Reason},
		card:     wire.Approval{Command: cmd.Command, Cwd: cmd.Dir, TimeoutSeconds: int(cmd.Timeout.Seconds()), Reason: cmd.Reason, Background: cmd.Background},
		rejected: "The user rejected this command; it was not run."}
	c.sandbox = &wire.SandboxInfo{Outside: cmd.Outside, Reason: cmd.Reason}
	if cmd.Background {
		q.card.TimeoutSeconds = 0 // a job runs until stopped
	}
	if !status.Ready && !cmd.Outside {
		q.card.NoSandbox = "The sandbox cannot start on this machine, so this command would run with your full rights: " + status.Why
		c.sandbox.Unavailable = status.Why
	}
	if cmd.Outside {
		q.rejected = "The user did not let this command run outside the sandbox; it was not run. Run it in the sandbox (leave out sandbox: false), or do without it."
	}
	return q, true
}

// runCommand runs the allowed command, in the pod when the gate said so,
// with the folder held and the ledger's scan around it.
func runCommand(c *call) (tools.Result, error) {
	t, r, ctx, p := c.t, c.r, c.ctx, c.proposal
	l, cmd, info := t.l, p.Command, c.sandbox
	opt := tools.ApplyOptions{OnOutput: func(chunk string) { l.m.out.output(l.id, r.use.ID, chunk) }}
	var run *sandboxRun
	if c.grant.d.Sandboxed {
		sess, err := l.pod.sandbox()
		if err != nil {
			l.m.log.Warn("the session's sandbox", "session", l.id, "err", err)
			c.fail("The command was not run: "+err.Error()+".", true)
			return tools.Result{}, nil
		}
		opt.Sandbox, info.Sandboxed = sess, true
		run = c.startRun(ctx, cmd.Command)
	}
	c.running(ctx)
	c.saveSandbox(ctx, info)
	bg := context.WithoutCancel(ctx)
	release, waited, err := c.hold(ctx, "running "+cmd.Command)
	if err != nil {
		if run != nil {
			run.end()
		}
		o := cancelled(false)
		if ctx.Err() == nil {
			o = outcome{text: "The command was not run: Pilot could not take this folder for it (" + err.Error() + ").", isError: true, status: wire.ToolError}
		}
		o.approval = c.grant.state
		c.tell(o)
		return tools.Result{}, nil
	}
	if cmd.Background {
		runJob(c, opt.Sandbox, run, release, waited)
		return tools.Result{}, nil
	}
	cp := c.beforeCommand(bg)
	res, err := l.registry.Apply(ctx, p, opt)
	var refused []string // the proxy's refusals: the output does not hold them
	if run != nil {
		refused = run.end()
	}
	changed, runsCode := c.afterCommand(bg, cp, cmd.Command)
	release()
	res.Output += waitNote(waited) + runsCode
	if blocked := append(refused, res.Blocked...); len(blocked) > 0 {
		info.Blocked = blocked
		c.saveSandbox(ctx, info)
	}
	if len(refused) > 0 {
		res.Output += "\n\n" + strings.Join(refused, "\n")
	}
	if err != nil && ctx.Err() == nil {
		l.m.log.Warn("running a command", "session", l.id, "sandboxed", c.grant.d.Sandboxed, "err", err)
	}
	c.changed = changed
	return res, err
}

// saveSandbox keeps how the command ran with its call and shows it on the
// card.
func (c *call) saveSandbox(ctx context.Context, info *wire.SandboxInfo) {
	t, r := c.t, c.r
	b, err := json.Marshal(info)
	if err == nil {
		err = t.l.m.st.ToolCalls.SetRecord(context.WithoutCancel(ctx), r.rec.ID, store.RecordSandbox, string(b))
	}
	if err != nil {
		t.l.m.log.Warn("saving the command's sandbox", "err", err)
	}
	r.view.Sandbox = info
	t.l.emitTool(r.view)
}
