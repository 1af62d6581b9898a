package agent

import (
	"context"
	"errors"
	"fmt"

	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/view"
	"pilot/backend/wire"
)

// Reasons a turn ends (wire.TurnDonePayload.Reason).
const (
	ReasonEndTurn   = "end_turn"
	ReasonCancelled = "cancelled"
	ReasonError     = "error"
	ReasonLimit     = "limit"
	ReasonLoopGuard = "loop_guard"
	ReasonBudget    = "budget"
	ReasonMaxTokens = "max_tokens"
)

// turn is one running turn of a session.
type turn struct {
	mcpSeen  map[string]bool // MCP servers whose tools the last model call offered
	mcpLost  map[string]bool // of those, the ones gone since
	l        *live
	sess     store.Session
	p        llm.Provider
	thinking int    // extended-thinking budget of each call, 0: off
	model    string // sent with each request ("" for the provider's default)
	priced   string // the model the prices and the window are looked up for
	window   int
	system   string
	mode     permission.Mode
	history  []store.Message
	guardKey string
	guardN   int
	retried  bool // a context-too-long answer was already compacted and retried
	own      ownState
}

// run executes a turn and reports its end.
func (l *live) run(ctx context.Context, user []llm.ContentBlock) {
	reason := l.turn(ctx, user)
	l.mu.Lock()
	l.cancel()
	l.cancel = nil
	l.mu.Unlock()

	bg := context.WithoutCancel(ctx)
	state, saved := Idle, store.SessionIdle
	switch reason {
	case ReasonError:
		state, saved = Error, store.SessionError
	case ReasonCancelled:
		saved = store.SessionInterrupted
	}
	if err := l.m.st.SetState(bg, l.id, saved); err != nil {
		l.m.log.Warn("saving session state", "session", l.id, "err", err)
	}
	untitled := false
	if sess, err := l.m.st.Session(bg, l.id); err == nil {
		if untitled = sess.Title == ""; untitled {
			if sess.Title, err = l.m.st.AutoTitle(bg, l.id, nil); err != nil {
				l.m.log.Warn("session title", "session", l.id, "err", err)
			}
		}
		l.m.out.global(wire.SessionUpdated, wire.SessionPayload{Session: view.Session(sess)})
	}
	l.setState(state)
	l.send(wire.AgentTurnDone, func(q wire.Seq) any { return wire.TurnDonePayload{Seq: q, Reason: wire.TurnEndReason(reason)} })
	if untitled && l.m.opt.Titles && reason != ReasonError {
		l.modelTitle()
	}
}

// turn prepares the turn and runs its loop; it returns why it ended.
func (l *live) turn(ctx context.Context, user []llm.ContentBlock) string {
	bg := context.WithoutCancel(ctx)
	t, err := l.prepare(bg, user)
	if err != nil {
		l.setState(Streaming)
		l.emitError(err)
		return ReasonError
	}
	return t.loop(ctx)
}

// prepare repairs the history, commits the user's message and loads the
// turn. Without a message (Retry) the saved history is sent as it is.
func (l *live) prepare(ctx context.Context, user []llm.ContentBlock) (*turn, error) {
	st := l.m.st
	if _, err := st.Repair(ctx, l.id); err != nil {
		return nil, fmt.Errorf("repairing the session: %w", err)
	}
	if user == nil {
		if err := st.SetState(ctx, l.id, store.SessionRunning); err != nil {
			return nil, err
		}
		return l.load(ctx)
	}
	note, err := st.TakePendingNote(ctx, l.id)
	if err != nil {
		return nil, fmt.Errorf("reading the session: %w", err)
	}
	if note != "" {
		// What the user undid since the model's last turn: the model must
		// not assume its earlier changes are still there.
		user = append(user[:len(user):len(user)], llm.ContentBlock{Type: llm.BlockText, Text: note})
	}
	msg, err := st.AppendMessage(ctx, l.id, llm.Message{Role: llm.RoleUser, Content: user}, llm.Usage{})
	if err != nil {
		if note != "" {
			_ = st.AddPendingNote(ctx, l.id, note)
		}
		return nil, fmt.Errorf("saving your message: %w", err)
	}
	l.emitMessage(msg)
	if err := st.SetState(ctx, l.id, store.SessionRunning); err != nil {
		return nil, err
	}
	return l.load(ctx)
}

// load reads the session, its history and its provider.
func (l *live) load(ctx context.Context) (*turn, error) {
	st := l.m.st
	sess, err := st.Session(ctx, l.id)
	if err != nil {
		return nil, err
	}
	history, err := st.Messages(ctx, l.id)
	if err != nil {
		return nil, err
	}
	p, err := l.m.provider(ctx, sess)
	if err != nil {
		return nil, err
	}
	model := sess.Model
	if model == "" {
		model = llm.DefaultModel(p.Name())
	}
	window := l.m.opt.ContextWindow
	if window <= 0 {
		window = llm.ContextWindow(model)
	}
	return &turn{
		l: l, sess: sess, p: p.Provider, thinking: p.ThinkingBudget, model: sess.Model, priced: model, window: window,
		system:  SystemPrompt(ctx, l.root.Dir(), l.m.opt.Now()),
		mode:    l.approvalMode(sess),
		own:     ownState{helpers: p.Helpers},
		history: history,
	}, nil
}

// loop calls the model and runs tools until the turn ends.
func (t *turn) loop(ctx context.Context) string {
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
		if len(ans.uses) == 0 {
			if ans.stop == llm.StopMaxTokens {
				l.notice("limit", "The answer reached the model's output limit and was cut.", 0)
				return ReasonMaxTokens
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
	}
}
