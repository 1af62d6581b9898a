package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/websearch"
	"pilot/backend/wire"
)

// A tool call's path (docs/ARCHITECTURE.md, "A tool call's path"): every
// call the model makes, of every kind, goes through dispatch in one
// order:
//
//	hooks (PreToolUse) → gate → ask → hold and checkpoint → run →
//	ending (stored, emitted, told to the model) → ledger → diagnostics →
//	hooks (PostToolUse)
//
// What differs between kinds is declared once per kind (kinds.go): what
// the call asks the gate and how the question is shown (question), what
// it does once allowed (effect), and what a failure says. The gate's
// verdict is acted on in one place (permit, gatekeeping.go) and a call
// ends in one place (end, then finish).

// toolRun is one tool call of an answer and what came of it.
type toolRun struct {
	use    llm.ContentBlock
	msg    int64      // the assistant message that asked for it
	parent string     // a custom agent's call: the task's tool_use id
	tool   tools.Tool // nil for a tool the registry does not know
	skip   string     // not run: this is its (error) result
	refuse string     // not run: the mode refuses it (gate.Admit); this is its result
	rec    store.ToolCall
	view   wire.ToolCall
	out    outcome
}

// outcome is what a tool call produced, for the model and the store.
type outcome struct {
	text     string
	isError  bool
	status   wire.ToolStatus
	approval store.Approval
	feedback string
	// refusedBy says who refused a rejected call (store.Refused*).
	refusedBy string
	images    []llm.ContentBlock // images the tool returned, stored (toolImages)
	release   []func()           // unpin them once the results are saved
}

func cancelled(started bool) outcome {
	text := "Not run: the user stopped the turn before this call started."
	if started {
		text = "Stopped: the user cancelled the turn while this call was running; it may have had part of its effect."
	}
	return outcome{text: text, isError: true, status: wire.ToolCancelled}
}

// concurrent reports whether r may run alongside its neighbours: it only
// reads and needs no order (or will not run at all).
func (r *toolRun) concurrent() bool {
	return r.skip != "" || r.refuse != "" || r.tool == nil || (r.tool.ReadOnly() && !tools.IsOrdered(r.tool))
}

// runTools runs the calls of an answer: consecutive read-only calls
// together, each change-making call alone in the model's order. Every
// tool_use gets exactly one tool_result, in the same order, committed
// before the next model call. It returns a reason to end the turn, or "".
func (t *turn) runTools(ctx context.Context, ans answer) (Reason, error) {
	l := t.l
	var stop Reason
	runs := make([]*toolRun, len(ans.uses))
	for i, u := range ans.uses {
		r := &toolRun{use: u, msg: ans.msg.ID}
		r.tool, _ = l.registry.Get(u.Name)
		// Malformed calls count for the loop guard too, compared as the
		// model sent them: the same one repeated stops the turn like any
		// other repetition, different ones are different calls.
		name, input := sent(u, ans.bad)
		switch bad, isBad := ans.bad[u.ID]; {
		case stop != "":
			r.skip = t.guard.laterResult(l.m.opt.LoopGuard)
		case t.guard.see(name, input, l.m.opt.LoopGuard):
			stop = ReasonLoopGuard
			r.skip = t.guard.stoppedResult(l.m.opt.LoopGuard)
		case isBad && bad.why == noToolName:
			r.skip = "Not run: this call named no tool. Call one of the tools you were given by its name."
		case isBad:
			r.skip = fmt.Sprintf("Not run: the input of this %s call could not be used (%s). Call it again with a complete JSON object as input.", u.Name, bad.why)
		}
		if r.skip == "" && r.tool != nil {
			r.refuse = gate.Admit(t.mode, r.tool.Name(), r.tool.ReadOnly())
		}
		runs[i] = r
	}
	for i := 0; i < len(runs); {
		l.setState(ToolExecuting)
		if !runs[i].concurrent() {
			if err := t.dispatch(ctx, runs[i]); err != nil {
				return "", err
			}
			i++
			continue
		}
		j := i
		for j < len(runs) && runs[j].concurrent() {
			j++
		}
		var wg sync.WaitGroup
		errs := make([]error, j-i)
		for k, r := range runs[i:j] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[k] = t.dispatch(ctx, r)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return "", err
			}
		}
		i = j
	}
	if err := t.commitResults(ctx, runs); err != nil {
		return "", err
	}
	if stop == "" && planned(runs) {
		stop = ReasonPlan
	}
	if stop == ReasonLoopGuard {
		l.notice("loop_guard", t.guard.notice(l.m.opt.LoopGuard), 0)
	}
	if ctx.Err() != nil {
		return ReasonCancelled, nil
	}
	return stop, nil
}

// dispatch takes one call through the pipeline: stored and shown, its
// PreToolUse hooks, its kind's part (perform: gate, ask, effect, ending),
// its PostToolUse hooks, then its ending stored and shown with the
// ledger's part of its card.
func (t *turn) dispatch(ctx context.Context, r *toolRun) error {
	l := t.l
	bg := context.WithoutCancel(ctx)
	rec, err := l.m.st.ToolCalls.Insert(bg, store.ToolCall{
		SessionID: l.id, MessageID: r.msg, ParentToolUseID: r.parent,
		Call: store.Call{ToolUseID: r.use.ID, Name: r.use.Name, Input: r.use.Input},
	})
	if err != nil {
		return fmt.Errorf("saving the tool call: %w", err)
	}
	r.rec = rec
	r.view = present.ToolCall(rec, l.registry.Label(r.use.Name, r.use.Input))
	l.emitTool(r.view)
	c := &call{t: t, ctx: ctx, r: r}
	switch {
	case r.skip != "":
		c.finish(outcome{text: r.skip, isError: true, status: wire.ToolError})
	case r.refuse != "":
		c.finish(refusedOutcome(r.refuse, admitRefuser(t.mode)))
	case ctx.Err() != nil:
		c.finish(cancelled(false))
	default:
		if hctx, ok := t.preToolUse(c); ok {
			c.ctx = hctx
			c.perform(kindOf(r))
			c.postToolUse(ctx)
		}
	}
	if r.out.text == "" {
		r.out.text = "(no output)"
	}
	t.bringInstructions(bg, r)
	if r.out.approval != "" {
		if err := l.m.st.ToolCalls.SetApproval(bg, rec.ID, r.out.approval, r.out.feedback); err != nil {
			return fmt.Errorf("saving the approval: %w", err)
		}
	}
	if r.out.refusedBy != "" && !strings.HasPrefix(r.out.refusedBy, refusedHook) {
		if err := l.m.st.ToolCalls.SetRefusedBy(bg, rec.ID, r.out.refusedBy); err != nil {
			return fmt.Errorf("saving who refused the call: %w", err)
		}
	}
	if err := l.saveHooks(bg, rec.ID, r.view.Hooks); err != nil {
		return err
	}
	if err := l.m.st.ToolCalls.Finish(bg, rec.ID, r.out.status, r.out.text); err != nil {
		return fmt.Errorf("saving the tool result: %w", err)
	}
	present.End(&r.view, r.out.status, r.out.text, r.out.isError, r.out.refusedBy, l.m.opt.Now())
	c.cards(bg)
	l.emitTool(r.view)
	t.afterSessionTool(r)
	return nil
}

// call is one tool call in its kind's part of the pipeline: the turn it
// runs in, its context, what the gate and the user granted, and what the
// kind keeps between its question and its effect.
type call struct {
	t     *turn
	ctx   context.Context
	r     *toolRun
	grant grant
	// proposal is what a change-making tool proposed (no effect yet).
	proposal *tools.Proposal
	// attempt counts the times a change was shown again because its file
	// changed on disk (errAgain).
	attempt int
	plans   []*filePlan // a file change's files
	// private: the fetched host may be a private address (web_fetch).
	private bool
	// searcher is the search service a web_search goes to.
	searcher *websearch.Searcher
	// warm are the files a read reads, whose language servers start.
	warm []string
	// changed are the files the effect changed, which the language
	// servers are asked about once the call has ended.
	changed []string
	// sandbox is how a command runs, shown on its card.
	sandbox *wire.SandboxInfo
	// run, host and port: a network call's command and connection.
	run  *sandboxRun
	host string
	port int
	// owned: a call of another's (a network question of the running
	// command's call): its ending is its own (ended), not the owner's.
	owned bool
	ended outcome
	// helper: a helper's call, whose result's images are not kept (the
	// helper is not shown them).
	helper bool
	// told: the effect worded the ending itself (tell).
	told bool
}

// errAgain is an effect's answer when its call must go through the gate
// and the user again: a change whose file changed on disk meanwhile.
var errAgain = errors.New("agent: ask again")

// perform is a call's kind's part of the pipeline: the question to the
// gate, the verdict and the user's answer (permit), the effect, the ending
// and the diagnostics. A change-making tool builds its proposal first,
// which has no effect.
func (c *call) perform(k *kind) {
	t, r := c.t, c.r
	if k.proposes {
		res, err := t.l.registry.Execute(c.ctx, r.use.Name, r.use.Input)
		if err != nil || res.IsError || res.Proposal == nil {
			c.end(&proposing, res, err)
			return
		}
		c.proposal = res.Proposal
	}
	for {
		if k.question != nil {
			if k.serial {
				t.own.ask.Lock() // one question of this kind at a time: a second call finds the first one's yes
			}
			q, ok := k.question(c)
			if ok {
				ok = c.permit(q)
			}
			if k.serial {
				t.own.ask.Unlock()
			}
			if !ok {
				return
			}
		}
		res, err := k.effect(c)
		if errors.Is(err, errAgain) {
			c.attempt++
			continue
		}
		if !c.told {
			c.end(k, res, err)
		}
		c.diagnose(c.ctx, c.changed)
		return
	}
}

// end is the one ending of a run: stopped by the user (with what a
// command printed so far), failed (the kind's sentence and the error), or
// done (the result, with the user's words when they approved it with
// some); what the user decided goes with it.
func (c *call) end(k *kind, res tools.Result, err error) {
	g := c.grant
	switch {
	case err != nil && c.ctx.Err() != nil:
		o := cancelled(true)
		if k.streams && res.Output != "" {
			o.text += "\nOutput so far:\n" + res.Output
		}
		o.approval = g.state
		c.finish(o)
	case err != nil:
		c.finish(outcome{text: k.failed + err.Error(), isError: true, status: wire.ToolError, approval: g.state})
	default:
		o := outcome{text: res.Output + said(g.feedback), isError: res.IsError, status: statusOf(res.IsError), approval: g.state, feedback: g.feedback}
		switch {
		case c.helper && len(res.Images) > 0:
			o.text += "\n(A helper is not shown images; the main agent can read this file itself.)"
		case !c.helper:
			c.toolImages(res, &o) // stored once in the blob store, sent as images
		}
		c.finish(o)
	}
}

// finish is where every call ends: what the model reads, the status
// stored and shown. Every ending passes here, whoever words it.
func (c *call) finish(o outcome) {
	if c.owned {
		c.ended = o
		return
	}
	c.r.out = o
}

// tell ends the call with the kind's own words.
func (c *call) tell(o outcome) {
	c.told = true
	c.finish(o)
}

// fail ends the call with a failure in the kind's own words, before the
// gate (no approval) or after it (approved: true, with the grant's).
func (c *call) fail(text string, approved bool) {
	o := outcome{text: text, isError: true, status: wire.ToolError}
	if approved {
		o.approval = c.grant.state
	}
	c.tell(o)
}

func statusOf(isError bool) wire.ToolStatus {
	if isError {
		return wire.ToolError
	}
	return wire.ToolDone
}

// said renders the user's feedback for the model.
func said(feedback string) string {
	if f := strings.TrimSpace(feedback); f != "" {
		return "\nThe user said: " + f
	}
	return ""
}

// commitResults saves the tool results as one user message, in the order
// of the tool_use blocks.
func (t *turn) commitResults(ctx context.Context, runs []*toolRun) error {
	blocks := make([]llm.ContentBlock, len(runs))
	for i, r := range runs {
		blocks[i] = llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: r.use.ID, Content: r.out.text, IsError: r.out.isError, Images: r.out.images}
		defer func() {
			for _, release := range r.out.release {
				release()
			}
		}()
	}
	msg, err := t.l.m.st.Messages.Append(context.WithoutCancel(ctx), t.l.id, llm.Message{Role: llm.RoleUser, Content: blocks}, llm.Usage{})
	if err != nil {
		return fmt.Errorf("saving the tool results: %w", err)
	}
	t.history = append(t.history, msg)
	t.l.emitMessage(msg)
	return nil
}

// inputOf reads the call's input as P; a mistake ends the call with the
// sentence for the model (false).
func inputOf[P any](c *call) (P, bool) {
	p, bad := tools.Params[P](c.r.tool, c.r.use.Input)
	if bad != nil {
		c.fail(bad.Output, false)
		return p, false
	}
	return p, true
}
