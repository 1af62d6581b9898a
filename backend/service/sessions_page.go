package service

import (
	"context"
	"errors"

	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/toolname"
	"pilot/backend/wire"
)

// PageSize is how many messages the window reads at a time: the last ones
// when it opens a session, older ones as the user scrolls up.
const PageSize = 100

// Get returns what the chat shows of a session when it opens: its
// last PageSize messages, or from message focus (a search hit) on if that
// is older, and makes it the active session (whose changed files the file
// tree marks). The snapshot is read while the session's events are held
// back, so its Seq tells the frontend exactly which events are already in
// it. A focus that is no longer in the session (rewound) is left out.
func (se *Sessions) Get(ctx context.Context, id, focus int64) (wire.SessionDetail, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.SessionDetail{}, err
	}
	d, err := se.get(ctx, id, focus)
	if focus != 0 && errors.Is(err, store.ErrNotFound) {
		d, err = se.get(ctx, id, 0)
	}
	return d, err
}

func (se *Sessions) get(ctx context.Context, id, focus int64) (wire.SessionDetail, error) {
	var (
		p       store.Page
		pending []wire.Approval
		state   string
	)
	se.dropEmpty(ctx, id)
	lv, err := se.agent.Snapshot(id, func() (err error) {
		p, err = se.store.Sessions.TranscriptPage(ctx, id, store.PageQuery{From: focus, Limit: PageSize})
		pending, state = se.agent.Approvals().Pending(id), string(se.agent.State(id))
		return err
	})
	if err != nil {
		return wire.SessionDetail{}, err
	}
	if pending == nil {
		pending = []wire.Approval{} // "pending": [], never null: the window reads .length
	}
	d := wire.SessionDetail{
		Seq:      lv.Seq,
		Session:  se.presentWith(p.Session, se.elsewhere.runs()),
		Pending:  pending,
		Usage:    usageView(p.Session, p.LastUsage, se.svc.Turns.knownFacts(ctx, p.Session)),
		State:    wire.AgentStatus(state),
		Todos:    present.Todos(p.Todos),
		HasOlder: p.HasOlder,
	}
	if d.Messages, d.ToolCalls, err = se.pageView(ctx, p); err != nil {
		return wire.SessionDetail{}, err
	}
	mergeLive(&d, lv)
	leaveOutUnshown(d.Messages, d.ToolCalls)
	se.svc.Ledger.setActive(id)
	return d, nil
}

// OlderMessages returns the PageSize messages of a session before message
// before, reaching back at least to message from (0: no such need), as
// the window shows them.
func (se *Sessions) OlderMessages(ctx context.Context, id, before, from int64) (wire.MessagePage, error) {
	if err := se.waitStarted(ctx); err != nil {
		return wire.MessagePage{}, err
	}
	p, err := se.store.Sessions.TranscriptPage(ctx, id, store.PageQuery{Before: before, From: from, Limit: PageSize})
	if err != nil {
		return wire.MessagePage{}, err
	}
	out := wire.MessagePage{HasOlder: p.HasOlder}
	if out.Messages, out.ToolCalls, err = se.pageView(ctx, p); err != nil {
		return wire.MessagePage{}, err
	}
	leaveOutUnshown(out.Messages, out.ToolCalls)
	return out, nil
}

// pageView is a page's messages and tool calls as events, with the
// ledger's part on the cards.
func (se *Sessions) pageView(ctx context.Context, p store.Page) ([]wire.Message, []wire.ToolCall, error) {
	pr, err := se.svc.Turns.projectRoot(ctx, p.Session.ProjectID)
	if err != nil {
		return nil, nil, err
	}
	cards, err := se.ledger.Cards(ctx, p.Session.ID)
	if err != nil {
		return nil, nil, err
	}
	msgs := make([]wire.Message, len(p.Messages))
	for i, m := range p.Messages {
		msgs[i] = present.Message(m)
	}
	jobs := map[string]string{} // the run_bash calls that started the session's jobs, still held
	for _, j := range se.agent.Jobs(p.Session.ID) {
		jobs[j.ToolCallID] = j.ID
	}
	calls := make([]wire.ToolCall, len(p.ToolCalls))
	for i, c := range p.ToolCalls {
		calls[i] = present.ToolCall(c, pr.registry.Label(c.Name, c.Input))
		cards.Fill(&calls[i])
		if c.Name == toolname.RunBash {
			calls[i].JobID = jobs[c.ToolUseID]
		}
	}
	return msgs, calls, nil
}

// leaveOutUnshown drops what the window never shows from what it reads of
// a session: big tool inputs and tool results' text (see present.WindowMessage).
func leaveOutUnshown(msgs []wire.Message, calls []wire.ToolCall) {
	for i := range msgs {
		msgs[i] = present.WindowMessage(msgs[i])
	}
	for i := range calls {
		calls[i] = present.WindowToolCall(calls[i])
	}
}
