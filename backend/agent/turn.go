package agent

import (
	"context"
	"errors"
	"fmt"

	"pilot/backend/customagent"
	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/memory"
	"pilot/backend/modelfacts"
	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Reason is why a turn ended (wire.TurnDonePayload.Reason); every value
// is a wire.TurnEndReason, which the faces compare (wiregen's
// TestDomainValuesFitWire).
type Reason string

// Reasons a turn ends.
const (
	ReasonEndTurn   Reason = "end_turn"
	ReasonCancelled Reason = "cancelled"
	ReasonError     Reason = "error"
	ReasonLimit     Reason = "limit"
	ReasonLoopGuard Reason = "loop_guard"
	ReasonBudget    Reason = "budget"
	ReasonMaxTokens Reason = "max_tokens"
)

// turn is one running turn of a session. Its methods are grouped by job:
//
//   - turn.go: the loop (prepare, call the model, run its tools, repeat)
//     and the budget check between calls;
//   - turn_model.go: one model call, its stream assembled into an answer,
//     and the usage it cost;
//   - turn_context.go: fitting the history to the context window, and
//     compaction;
//   - pipeline.go: the answer's tool calls, each taken through the one
//     path of a call (dispatch); a call in that path is a call
//     (gatekeeping.go: the gate and approvals; kinds.go and kind_*.go:
//     each tool kind's declaration and effect; checkpoint.go: the ledger);
//   - plan.go, helper.go: plan mode, the task tool's helper.
type turn struct {
	mcpSeen  map[string]bool // MCP servers whose tools the last model call offered
	mcpLost  map[string]bool // of those, the ones gone since
	l        *live
	sess     store.Session
	p        llm.Provider
	thinking int              // extended-thinking budget of each call, 0: off
	model    string           // sent with each request ("" for the provider's default)
	facts    modelfacts.Facts // the model's window, answer limit and prices
	window   int              // the window in force: Options.ContextWindow, else facts'
	windowOf wire.FactSource  // where window came from
	// toldLoaded: the user was told this turn that the server's loaded
	// context is smaller than the conversation (warnLoaded).
	toldLoaded   bool
	system       string
	instructions []memory.File // the instruction files of system (memory.Load's): nested files shadow them (memory.Nested)
	pathRules    []memory.File // the rules with paths: (memory.PathRules), given with a matching file's call
	mode         permission.Mode
	history      []store.Message
	guard        loopGuard
	retried      bool // a context-too-long answer was already compacted and retried
	own          ownState
	agents       customagent.Set // the custom agents task may start (loadAgents)
	stopped      bool            // a Stop hook already made the model go on once
	halted       halted          // a hook asked to stop (continue: false)
}

// run executes a turn and reports its end.
func (l *live) run(ctx context.Context, user []llm.ContentBlock) {
	reason := l.turn(ctx, user)
	l.mu.Lock()
	l.cancel()
	l.cancel = nil
	l.mu.Unlock()

	bg := context.WithoutCancel(ctx)
	state, saved := Idle, wire.SessionIdle
	switch reason {
	case ReasonError:
		state, saved = Error, wire.SessionError
	case ReasonCancelled:
		saved = wire.SessionInterrupted
	}
	if err := l.m.st.Sessions.SetState(bg, l.id, saved); err != nil {
		l.m.log.Warn("saving session state", "session", l.id, "err", err)
	}
	untitled := false
	if sess, err := l.m.st.Sessions.Get(bg, l.id); err == nil {
		if untitled = sess.Title == ""; untitled {
			if sess.Title, err = autoTitle(bg, l.m.st, l.id, nil); err != nil {
				l.m.log.Warn("session title", "session", l.id, "err", err)
			}
		}
		l.m.out.global(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(sess)})
	}
	l.jobs.recordJobs(bg) // what the running jobs changed in this turn
	l.pod.idleSandbox()
	l.setState(state)
	l.send(wire.AgentTurnDone, func(q wire.Seq) any { return wire.TurnDonePayload{Seq: q, Reason: wire.TurnEndReason(reason)} })
	if untitled && l.m.opt.Titles && reason != ReasonError {
		l.modelTitle()
	}
}

// turn prepares the turn and runs its loop; it returns why it ended.
func (l *live) turn(ctx context.Context, user []llm.ContentBlock) Reason {
	bg := context.WithoutCancel(ctx)
	again := l.again.take() // taken first: a turn that ends early does not leave it to the next
	l.loadHooks()
	user = l.sessionStart(ctx, user)
	if user != nil {
		var err error
		if user, err = l.userPromptSubmit(ctx, user); err != nil {
			l.setState(Streaming)
			l.emitError(err)
			return ReasonError
		}
	}
	t, err := l.prepare(bg, user)
	if err != nil {
		l.setState(Streaming)
		l.emitError(err)
		return ReasonError
	}
	if again != nil {
		l.setState(Streaming) // runTools moves on to tool_executing
		switch stop, err := t.rerun(ctx, *again); {
		case err != nil:
			l.emitError(err)
			return ReasonError
		case stop != "":
			return stop
		}
	}
	return t.loop(ctx)
}

// prepare repairs the history, commits the user's message and loads the
// turn. Without a message (Retry) the saved history is sent as it is.
func (l *live) prepare(ctx context.Context, user []llm.ContentBlock) (*turn, error) {
	st := l.m.st
	if _, err := st.Sessions.Repair(ctx, l.id); err != nil {
		return nil, fmt.Errorf("repairing the session: %w", err)
	}
	if user == nil {
		if err := st.Sessions.SetState(ctx, l.id, wire.SessionRunning); err != nil {
			return nil, err
		}
		return l.load(ctx)
	}
	note, err := st.Sessions.TakePendingNote(ctx, l.id)
	if err != nil {
		return nil, fmt.Errorf("reading the session: %w", err)
	}
	if note != "" {
		// What the user undid since the model's last turn: the model must
		// not assume its earlier changes are still there.
		user = append(user[:len(user):len(user)], llm.ContentBlock{Type: llm.BlockText, Text: note})
	}
	msg, err := st.Messages.Append(ctx, l.id, llm.Message{Role: llm.RoleUser, Content: user}, llm.Usage{})
	if err != nil {
		if note != "" {
			_ = st.Sessions.AddPendingNote(ctx, l.id, note)
		}
		return nil, fmt.Errorf("saving your message: %w", err)
	}
	l.emitMessage(msg)
	if err := st.Sessions.SetState(ctx, l.id, wire.SessionRunning); err != nil {
		return nil, err
	}
	return l.load(ctx)
}

// load reads the session, its history and its provider.
func (l *live) load(ctx context.Context) (*turn, error) {
	st := l.m.st
	sess, err := st.Sessions.Get(ctx, l.id)
	if err != nil {
		return nil, err
	}
	history, err := st.Messages.List(ctx, l.id)
	if err != nil {
		return nil, err
	}
	p, err := l.m.provider(ctx, sess)
	if err != nil {
		return nil, err
	}
	facts := p.facts(sess.Model)
	window, windowOf := l.m.window(facts)
	instructions := memory.Load(l.m.opt.Sandbox.home(), l.root.Dir())
	pathRules := memory.PathRules(l.m.opt.Sandbox.home(), l.root.Dir(), instructions)
	system, notRead := SystemPrompt(ctx, instructions, l.root.Dir(), l.m.opt.Now(), l.loadSkills().Skills)
	l.tellNotRead(notRead)
	return &turn{
		l: l, sess: sess, p: p.Provider, thinking: p.ThinkingBudget, model: sess.Model, facts: facts, window: window, windowOf: windowOf,
		system: system, instructions: instructions, pathRules: pathRules,
		mode:    l.approvalMode(sess),
		own:     ownState{helpers: p.Helpers},
		agents:  l.loadAgents(),
		history: history,
	}, nil
}

// loop calls the model and runs tools until the turn ends.
func (t *turn) loop(ctx context.Context) Reason {
	l := t.l
	for calls := 0; ; calls++ {
		if ctx.Err() != nil {
			return ReasonCancelled
		}
		if calls >= l.m.opt.MaxCalls {
			l.notice("limit", fmt.Sprintf("Stopped after %d model calls in one turn. Send a message to let the agent continue.", l.m.opt.MaxCalls), 0)
			return ReasonLimit
		}
		if reason := t.checkBudget(ctx); reason != "" {
			return reason
		}
		l.setState(Streaming)
		t.setMode()
		if err := t.fit(ctx); err != nil {
			if ctx.Err() != nil {
				return ReasonCancelled
			}
			l.emitError(err)
			return ReasonError
		}
		ans, err := t.call(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ReasonCancelled
			}
			if errors.Is(err, llm.ErrContextTooLong) && !t.retried {
				t.retried = true
				if cerr := t.compact(ctx, "The conversation was too long for the model", true); cerr == nil {
					continue
				} else if ctx.Err() != nil {
					return ReasonCancelled
				}
			}
			l.emitError(err)
			return ReasonError
		}
		if ans.stop == llm.StopRefusal {
			// Not a silent end: the user is told, in the window and by
			// pilot -p's exit status; no tool call of the answer is run.
			l.emitError(llm.Refusal(ans.why))
			return ReasonError
		}
		if len(ans.uses) == 0 && ans.stop == llm.StopPauseTurn && ans.msg.ID != 0 {
			continue // the provider's search paused: its answer, sent back as it is, goes on
		}
		if len(ans.uses) == 0 {
			if ans.stop == llm.StopMaxTokens {
				l.notice("limit", "The answer reached the model's output limit and was cut.", 0)
				return ReasonMaxTokens
			}
			if t.stopHook(ctx) {
				continue
			}
			return ReasonEndTurn
		}
		stop, err := t.runTools(ctx, ans)
		if err != nil {
			l.emitError(err)
			return ReasonError
		}
		if stop != "" {
			return stop
		}
		if why := t.halted.get(); why != "" {
			l.notice(string(wire.NoticeHook), "A hook of your settings stopped the turn: "+why, 0)
			return ReasonEndTurn
		}
	}
}

// budgetRaise holds the limits the user let the session go to after it
// reached its budget (0: the budget itself).
type budgetRaise struct {
	usd    float64
	tokens int
}

// checkBudget pauses the turn when the session has spent its budget and
// asks the user (an approval of the budget kind, through the gate) whether
// to go on for another budget's worth. It returns a
// reason to end the turn, or "".
func (t *turn) checkBudget(ctx context.Context) Reason {
	l := t.l
	sp := t.spending()
	if sp.over == "" {
		return ""
	}
	l.notice("budget", "The session reached its budget ("+sp.over+"). The turn is paused until you decide.", 0)
	l.setState(AwaitingApproval)
	c := &call{t: t, ctx: ctx, owned: true} // the turn's own question, on no tool call
	if !c.permit(question{call: gate.Call{Budget: true}, card: wire.Approval{
		Command: fmt.Sprintf("Continue past the session budget (%s) for another budget's worth?", sp.over),
	}}) {
		if c.ended.status == wire.ToolCancelled && ctx.Err() != nil {
			return ReasonCancelled
		}
		return ReasonBudget
	}
	l.mu.Lock()
	l.raised = budgetRaise{usd: sp.usd + sp.usdBudget, tokens: sp.tokens + sp.tokBudget}
	l.mu.Unlock()
	l.setState(Streaming)
	return ""
}

// spent is what the session has used against its budget.
type spent struct {
	usd, usdBudget    float64
	tokens, tokBudget int
	over              string // "" while under the budget (or the raised limit)
}

// spending reads the session's use against its budget and the limit the
// user raised it to.
func (t *turn) spending() spent {
	l := t.l
	t.own.mu.Lock()
	u, cost, sessBudget := t.sess.Usage, t.sess.CostUSD, t.sess.BudgetUSD
	t.own.mu.Unlock()
	sp := spent{usd: cost, tokens: u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens}
	usdBudget := sessBudget
	if usdBudget <= 0 {
		usdBudget = l.m.opt.BudgetUSD
	}
	tokBudget := l.m.opt.BudgetTokens
	sp.usdBudget, sp.tokBudget = usdBudget, tokBudget
	l.mu.Lock()
	raised := l.raised
	l.mu.Unlock()
	limitUSD, limitTok := max(usdBudget, raised.usd), max(tokBudget, raised.tokens)
	switch {
	case usdBudget > 0 && sp.usd >= limitUSD:
		sp.over = fmt.Sprintf("$%.2f spent, the limit is $%.2f", sp.usd, limitUSD)
	case tokBudget > 0 && sp.tokens >= limitTok:
		sp.over = fmt.Sprintf("%d tokens used, the limit is %d", sp.tokens, limitTok)
	}
	return sp
}
