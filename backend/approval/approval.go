// Package approval holds the decisions the user owes. A call the gate
// (backend/gate) asks about asks the Broker with its kind (a file change
// with its hunks, or a yes/no: command, MCP call, web fetch, budget...)
// and blocks until the user answers or the turn is cancelled. The first
// answer wins; a later one
// finds nothing pending and changes nothing, so a double click is harmless.
//
// The Broker announces each pending approval and its end through a
// Notifier (the agent turns them into wire.AgentApproval and
// wire.AgentApprovalDone, which are never dropped). A frontend fetches a
// change's hunks with Change.
package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"pilot/backend/wire"
)

var (
	// ErrNotPending: no pending approval has that id (never asked, already
	// decided, or cancelled).
	ErrNotPending = errors.New("approval: not pending")
	// ErrWrongKind: a yes/no answer to a change or the other way round,
	// or an Ask of the change kind.
	ErrWrongKind = errors.New("approval: answer of the wrong kind")
	// ErrBadDecision: the answer does not fit the change (unknown path,
	// wrong number of hunks).
	ErrBadDecision = errors.New("approval: decision does not fit the change")
)

// Notifier hears about approvals as they start and end.
type Notifier interface {
	Asked(sessionID int64, a wire.Approval)
	Done(sessionID int64, approvalID string, outcome wire.ApprovalOutcome)
}

// Answer is the user's decision: Change for a change, Elicitation for an
// MCP server's form, Command for every other kind (a command, an MCP
// call, a web fetch, the budget...).
type Answer struct {
	Change      *wire.ChangeDecision
	Command     *wire.CommandDecision
	Elicitation *wire.ElicitationDecision
	Outcome     wire.ApprovalOutcome
}

type pending struct {
	session  int64
	approval wire.Approval
	change   *wire.ChangeView
	form     func(json.RawMessage) error // an elicitation's check of the content accepted
	answer   chan Answer                 // buffered 1: receives the winning answer
	since    time.Time                   // when it was asked
}

// Broker keeps the pending approvals of every session. Safe for concurrent
// use.
type Broker struct {
	notify Notifier

	mu      sync.Mutex
	pending map[string]*pending
	order   []string // ids in the order they were asked
}

// New returns a broker that reports to n.
func New(n Notifier) *Broker {
	return &Broker{notify: n, pending: map[string]*pending{}}
}

// AskChange announces a change and waits for the answer. a.Kind is set to
// change; an empty a.ID gets a new id (see NewID), which change.ApprovalID
// takes too.
func (b *Broker) AskChange(ctx context.Context, sessionID int64, a wire.Approval, change wire.ChangeView) (Answer, error) {
	a.Kind = wire.ApprovalChange
	return b.ask(ctx, &pending{session: sessionID, approval: a, change: &change})
}

// Ask announces a yes/no approval of a.Kind (any kind but change, which
// has hunks: AskChange) and waits for the answer (DecideCommand).
func (b *Broker) Ask(ctx context.Context, sessionID int64, a wire.Approval) (Answer, error) {
	if a.Kind == "" || a.Kind == wire.ApprovalChange || a.Kind == wire.ApprovalElicitation {
		return Answer{}, fmt.Errorf("%w: Ask needs a yes/no kind, not %q", ErrWrongKind, a.Kind)
	}
	return b.ask(ctx, &pending{session: sessionID, approval: a})
}

// AskElicitation shows an MCP server's form (a.Elicitation; a.Kind is set
// to elicitation) and waits for the answer (DecideElicitation); check
// refuses content that does not fit the form, with the sentence the user
// is shown.
func (b *Broker) AskElicitation(ctx context.Context, sessionID int64, a wire.Approval, check func(json.RawMessage) error) (Answer, error) {
	a.Kind = wire.ApprovalElicitation
	return b.ask(ctx, &pending{session: sessionID, approval: a, form: check})
}

func (b *Broker) ask(ctx context.Context, p *pending) (Answer, error) {
	a := &p.approval
	if a.ID == "" {
		a.ID = NewID()
	}
	if p.change != nil {
		p.change.ApprovalID = a.ID
	}
	p.answer = make(chan Answer, 1)
	p.since = time.Now()
	b.mu.Lock()
	b.pending[a.ID] = p
	b.order = append(b.order, a.ID)
	b.mu.Unlock()
	b.notify.Asked(p.session, *a)

	select {
	case ans := <-p.answer:
		return ans, nil
	case <-ctx.Done():
		if b.take(p) {
			b.notify.Done(p.session, p.approval.ID, wire.OutcomeCancelled)
			return Answer{}, ctx.Err()
		}
		// An answer won the race and is already on its way.
		return <-p.answer, nil
	}
}

// take removes p if it is still pending and reports whether it did.
func (b *Broker) take(p *pending) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.pending[p.approval.ID]; !ok {
		return false
	}
	b.remove(p.approval.ID)
	return true
}

// remove deletes id; b.mu is held.
func (b *Broker) remove(id string) {
	delete(b.pending, id)
	for i, x := range b.order {
		if x == id {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
}

// DecideChange answers a pending change.
func (b *Broker) DecideChange(id string, d wire.ChangeDecision) error {
	return b.decide(id, wire.ApprovalChange, func(p *pending) (Answer, error) {
		outcome, err := check(*p.change, d)
		return Answer{Change: &d, Outcome: outcome}, err
	})
}

// DecideCommand answers a pending yes/no approval of any kind but change
// and elicitation.
func (b *Broker) DecideCommand(id string, d wire.CommandDecision) error {
	return b.decide(id, "", func(*pending) (Answer, error) {
		outcome := wire.OutcomeRejected
		if d.Approve {
			outcome = wire.OutcomeApproved
		}
		return Answer{Command: &d, Outcome: outcome}, nil
	})
}

// DecideElicitation answers a pending elicitation: accept with content
// that fits the form (else the error says what does not, and the form
// stays pending), decline, or cancel.
func (b *Broker) DecideElicitation(id string, d wire.ElicitationDecision) error {
	return b.decide(id, wire.ApprovalElicitation, func(p *pending) (Answer, error) {
		switch d.Action {
		case wire.ElicitAccept:
			if err := p.form(d.Content); err != nil {
				return Answer{}, fmt.Errorf("%w: %w", ErrBadDecision, err)
			}
			return Answer{Elicitation: &d, Outcome: wire.OutcomeApproved}, nil
		case wire.ElicitDecline:
			return Answer{Elicitation: &d, Outcome: wire.OutcomeRejected}, nil
		case wire.ElicitCancel:
			return Answer{Elicitation: &d, Outcome: wire.OutcomeCancelled}, nil
		}
		return Answer{}, fmt.Errorf("%w: the answer to a form is accept, decline or cancel, not %q", ErrBadDecision, d.Action)
	})
}

// decide answers the pending approval id, which must be of kind (a change
// or an elicitation), or of a yes/no kind ("").
func (b *Broker) decide(id string, kind wire.ApprovalKind, build func(*pending) (Answer, error)) error {
	b.mu.Lock()
	p, ok := b.pending[id]
	if !ok {
		b.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrNotPending, id)
	}
	if k := p.approval.Kind; k != kind && (kind != "" || k == wire.ApprovalChange || k == wire.ApprovalElicitation) {
		b.mu.Unlock()
		return fmt.Errorf("%w: %s is a %s", ErrWrongKind, id, p.approval.Kind)
	}
	ans, err := build(p)
	if err != nil {
		b.mu.Unlock()
		return err
	}
	b.remove(id)
	b.mu.Unlock()
	// Announce the end before waking the waiter, so the Done event comes
	// before anything the tool call does next.
	b.notify.Done(p.session, id, ans.Outcome)
	p.answer <- ans
	return nil
}

// Pending lists a session's pending approvals in the order they were asked.
func (b *Broker) Pending(sessionID int64) []wire.Approval {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []wire.Approval
	for _, id := range b.order {
		if p := b.pending[id]; p.session == sessionID {
			out = append(out, p.approval)
		}
	}
	return out
}

// Waiting is a pending approval with its session and when it was asked.
type Waiting struct {
	Session  int64
	Approval wire.Approval
	Since    time.Time
}

// All lists the pending approvals of every session, oldest first: the
// inbox across sessions.
func (b *Broker) All() []Waiting {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Waiting, 0, len(b.order))
	for _, id := range b.order {
		p := b.pending[id]
		out = append(out, Waiting{Session: p.session, Approval: p.approval, Since: p.since})
	}
	return out
}

// Change returns a pending change with its hunks.
func (b *Broker) Change(id string) (wire.ChangeView, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pending[id]
	if !ok {
		return wire.ChangeView{}, fmt.Errorf("%w: %s", ErrNotPending, id)
	}
	if p.change == nil {
		return wire.ChangeView{}, fmt.Errorf("%w: %s is a %s, not a change", ErrWrongKind, id, p.approval.Kind)
	}
	return *p.change, nil
}

// NewID returns a new approval id, for a caller that must name the approval
// before asking.
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "ap_" + hex.EncodeToString(b[:])
}
