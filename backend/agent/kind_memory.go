package agent

import (
	"context"
	"fmt"

	"pilot/backend/gate"
	"pilot/backend/memory"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// rememberKind: remember adds a line to the user's own instruction file,
// outside the project. It is shown and decided like a file change, hunk
// by hunk or edited, and asked every time (gate.judgeRemember); Pilot
// writes it itself (memory.WriteUser), not through the project's root,
// checkpoints or ledger, so rewind does not undo it, and the result says
// so.
var rememberKind = kind{proposes: true, question: rememberQuestion, effect: writeRemembered}

// rememberQuestion records the change for the review and asks the gate
// about it as remember (its path is the user's, not the project's).
func rememberQuestion(c *call) (question, bool) {
	q, ok := changeQuestion(c)
	if ok {
		q.call = gate.Call{Tool: gate.RememberTool, Paths: q.call.Paths}
	}
	return q, ok
}

// writeRemembered writes what the user approved, if the file is still
// what the change was made from.
func writeRemembered(c *call) (tools.Result, error) {
	bg := context.WithoutCancel(c.ctx)
	plans := c.plans
	dec, state, ok := c.applyDecision(bg, plans)
	if !ok {
		return tools.Result{}, nil
	}
	summary := describe(plans, dec)
	f := plans[0] // remember proposes one file
	if !f.write {
		c.nothingWritten(summary, dec)
		return tools.Result{}, nil
	}
	name, abs := f.change.Path, f.change.Abs
	now, existed, _, err := memory.ReadUser(abs)
	switch {
	case err != nil:
		c.fail(fmt.Sprintf("Not written: %s could not be read again before writing (%v).", name, err), true)
		return tools.Result{}, nil
	case existed != f.change.Existed || now != f.change.OldContent:
		c.fail(fmt.Sprintf("Not written: %s changed while the line was reviewed (the user or another program edited it). Call remember again to propose the line against what it holds now.", name), true)
		return tools.Result{}, nil
	}
	c.running(c.ctx)
	if err := memory.WriteUser(abs, f.final, f.change.Mode); err != nil {
		c.fail(fmt.Sprintf("Not written: %s could not be written (%v).", name, err), true)
		c.t.l.m.log.Error("writing the user's instructions", "path", abs, "err", err)
		return tools.Result{}, nil
	}
	c.applied(bg, plans)
	c.tell(outcome{text: summary + "\nWritten to " + name + ": the user's own instructions, which every session of every project reads from its start (this session's system prompt stays as it is). It is outside the project, so the project's checkpoints and rewind do not undo it.",
		status: wire.ToolDone, approval: state, feedback: dec.Feedback})
	return tools.Result{}, nil
}
