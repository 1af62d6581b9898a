package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"pilot/backend/approval"
	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

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
	status   store.ToolStatus
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
	return outcome{text: text, isError: true, status: store.ToolCancelled}
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
			if err := t.runOne(ctx, runs[i], t.runChange); err != nil {
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
				errs[k] = t.runOne(ctx, r, t.runRead)
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

// runOne records the call, runs it with exec unless it is skipped or the
// turn is cancelled, and records the outcome.
func (t *turn) runOne(ctx context.Context, r *toolRun, exec func(context.Context, *toolRun)) error {
	l := t.l
	bg := context.WithoutCancel(ctx)
	rec, err := l.m.st.ToolCalls.Insert(bg, store.ToolCall{
		SessionID: l.id, MessageID: r.msg, ToolUseID: r.use.ID, Name: r.use.Name, Input: r.use.Input, ParentToolUseID: r.parent,
	})
	if err != nil {
		return fmt.Errorf("saving the tool call: %w", err)
	}
	r.rec = rec
	r.view = present.ToolCall(rec, l.registry.Label(r.use.Name, r.use.Input))
	l.emitTool(r.view)
	switch {
	case r.skip != "":
		r.out = outcome{text: r.skip, isError: true, status: store.ToolError}
	case r.refuse != "":
		r.out = refusedOutcome(r.refuse, admitRefuser(t.mode))
	case ctx.Err() != nil:
		r.out = cancelled(false)
	default:
		if hctx, ok := t.preToolUse(ctx, r); ok {
			exec(hctx, r)
			t.postToolUse(ctx, r)
		}
	}
	if r.out.text == "" {
		r.out.text = "(no output)"
	}
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
	t.cards(bg, r)
	l.emitTool(r.view)
	t.afterSessionTool(r)
	return nil
}

// runRead runs a read-only call once the gate lets it (deny rules on read
// tools refuse it), or an unknown tool, which the registry answers with the
// list of real tools.
func (t *turn) runRead(ctx context.Context, r *toolRun) {
	if t.runOwn(ctx, r) { // task, web_fetch (helper.go, turn_remote.go) judge their own calls
		return
	}
	var state store.Approval
	var read []string // the file read_file reads (its language server is warmed)
	if r.tool != nil {
		c := t.readCall(r.use.Name, r.use.Input)
		if r.use.Name == "read_file" {
			read = c.Paths
		}
		switch d := t.judge(ctx, c); d.Verdict {
		case gate.Refuse:
			r.out = refusedBy(t.mode, d)
			return
		case gate.Ask: // an ask rule (a settings file's permissions.ask) names what it reads, or a PreToolUse hook asked
			a := wire.Approval{Command: t.l.registry.Label(r.use.Name, r.use.Input)}
			no := "Not run: a hook asked the user about this call and the user said no."
			if gate.ByAskRule(d) && len(c.Paths) > 0 {
				a = wire.Approval{Command: r.use.Name + " " + c.Paths[0], Paths: c.Paths}
				no = "The user rejected this read; the file was not read."
			}
			var ok bool
			if state, ok = t.asked(ctx, r, d, a, no); !ok {
				return
			}
			t.running(ctx, r)
		}
	}
	if res, ok := t.execute(ctx, r); ok {
		r.out = outcome{text: res.Output + said(r.out.feedback), isError: res.IsError, status: statusOf(res.IsError), approval: state, feedback: r.out.feedback}
		t.toolImages(res, &r.out)
		if !res.IsError {
			t.warmServers(read)
		}
	}
}

// execute runs the tool; when it fails (or is cancelled) it records that
// outcome in r and reports false.
func (t *turn) execute(ctx context.Context, r *toolRun) (tools.Result, bool) {
	res, err := t.l.registry.Execute(ctx, r.use.Name, r.use.Input)
	switch {
	case err != nil && ctx.Err() != nil:
		r.out = cancelled(true)
	case err != nil:
		r.out = outcome{text: "The tool failed: " + err.Error(), isError: true, status: store.ToolError}
	default:
		return res, true
	}
	return res, false
}

func statusOf(isError bool) store.ToolStatus {
	if isError {
		return store.ToolError
	}
	return store.ToolDone
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
	if gate.ByAskRule(d) {
		a.AskRule = d.Rule.String()
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
