package workspace

import (
	"context"
	"errors"

	"pilot/backend/events"
	"pilot/backend/store"
	"pilot/backend/view"
)

// PageSize is how many messages the window reads at a time: the last ones
// when it opens a session, older ones as the user scrolls up.
const PageSize = 100

// GetSession returns what the chat shows of a session when it opens: its
// last PageSize messages, or from message focus (a search hit) on if that
// is older, and makes it the active session (whose changed files the file
// tree marks). The snapshot is read while the session's events are held
// back, so its Seq tells the frontend exactly which events are already in
// it. A focus that is no longer in the session (rewound) is left out.
func (w *Workspace) GetSession(ctx context.Context, id, focus int64) (events.SessionDetail, error) {
	d, err := w.getSession(ctx, id, focus)
	if focus != 0 && errors.Is(err, store.ErrNotFound) {
		d, err = w.getSession(ctx, id, 0)
	}
	return d, err
}

func (w *Workspace) getSession(ctx context.Context, id, focus int64) (events.SessionDetail, error) {
	var (
		p       store.Page
		pending []events.Approval
		state   string
	)
	w.dropEmpty(ctx, id)
	lv, err := w.agent.Snapshot(id, func() (err error) {
		p, err = w.store.TranscriptPage(ctx, id, store.PageQuery{From: focus, Limit: PageSize})
		pending, state = w.agent.Approvals().Pending(id), string(w.agent.State(id))
		return err
	})
	if err != nil {
		return events.SessionDetail{}, err
	}
	if pending == nil {
		pending = []events.Approval{} // "pending": [], never null: the window reads .length
	}
	d := events.SessionDetail{
		Seq:      lv.Seq,
		Session:  view.Session(p.Session),
		Pending:  pending,
		Usage:    usageView(p.Session, p.LastUsage),
		State:    state,
		Todos:    view.Todos(p.Todos),
		HasOlder: p.HasOlder,
	}
	if d.Messages, d.ToolCalls, err = w.pageView(ctx, p); err != nil {
		return events.SessionDetail{}, err
	}
	mergeLive(&d, lv)
	leaveOutUnshown(d.Messages, d.ToolCalls)
	w.setActive(id)
	return d, nil
}

// OlderMessages returns the PageSize messages of a session before message
// before, reaching back at least to message from (0: no such need), as
// the window shows them.
func (w *Workspace) OlderMessages(ctx context.Context, id, before, from int64) (events.MessagePage, error) {
	p, err := w.store.TranscriptPage(ctx, id, store.PageQuery{Before: before, From: from, Limit: PageSize})
	if err != nil {
		return events.MessagePage{}, err
	}
	out := events.MessagePage{HasOlder: p.HasOlder}
	if out.Messages, out.ToolCalls, err = w.pageView(ctx, p); err != nil {
		return events.MessagePage{}, err
	}
	leaveOutUnshown(out.Messages, out.ToolCalls)
	return out, nil
}

// pageView is a page's messages and tool calls as events, with the
// ledger's part on the cards.
func (w *Workspace) pageView(ctx context.Context, p store.Page) ([]events.Message, []events.ToolCall, error) {
	pr, err := w.projectRoot(ctx, p.Session.ProjectID)
	if err != nil {
		return nil, nil, err
	}
	cards, err := w.ledger.Cards(ctx, p.Session.ID)
	if err != nil {
		return nil, nil, err
	}
	msgs := make([]events.Message, len(p.Messages))
	for i, m := range p.Messages {
		msgs[i] = view.Message(m)
	}
	calls := make([]events.ToolCall, len(p.ToolCalls))
	for i, c := range p.ToolCalls {
		calls[i] = view.ToolCall(c, pr.registry.Label(c.Name, c.Input))
		cards.Fill(&calls[i])
	}
	return msgs, calls, nil
}

// leaveOutUnshown drops what the window never shows from what it reads of
// a session: big tool inputs and tool results' text (see view.WindowMessage).
func leaveOutUnshown(msgs []events.Message, calls []events.ToolCall) {
	for i := range msgs {
		msgs[i] = view.WindowMessage(msgs[i])
	}
	for i := range calls {
		calls[i] = view.WindowToolCall(calls[i])
	}
}
