package service

import (
	"sync"

	"pilot/backend/wire"
)

// subscribers are the service's own reactions to the events it passes on
// to a face, registered by event name with the payload type they take
// (modelled on Crush's internal/pubsub, but called in line: a reaction
// such as the file tree's changed-file marks must hold before the face
// gets the event and asks again). Handlers run under the agent's event
// lock, so anything slow goes to a goroutine.
type subscribers struct {
	mu sync.RWMutex
	by map[string][]func(any)
}

// subscribe calls fn with every event named name whose payload is a P.
func subscribe[P any](s *subscribers, name string, fn func(P)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string][]func(any){}
	}
	s.by[name] = append(s.by[name], func(payload any) {
		if p, ok := payload.(P); ok {
			fn(p)
		}
	})
}

// publish calls the subscribers of name, in the order they subscribed.
func (s *subscribers) publish(name string, payload any) {
	s.mu.RLock()
	fns := s.by[name]
	s.mu.RUnlock()
	for _, fn := range fns {
		fn(payload)
	}
}

// subscribeOwn registers the service's reactions: checkpoint retention
// after every turn, and the active session's changed files after a change
// to its ledger.
func (c *core) subscribeOwn() {
	subscribe(&c.subs, wire.AgentTurnDone, func(wire.TurnDonePayload) {
		c.background(func() { c.svc.Ledger.enforceRetention(c.currentProject()) }) // off the event path: it stats stored objects
	})
	subscribe(&c.subs, wire.AgentTurnDone, func(p wire.TurnDonePayload) {
		if p.Reason == wire.EndPlan {
			c.plans.add(p.SessionID) // the inbox lists the plan while it waits (inbox_plans.go)
		}
	})
	subscribe(&c.subs, wire.LedgerUpdated, func(p wire.LedgerUpdatedPayload) {
		c.mu.RLock()
		active := c.changes.active
		c.mu.RUnlock()
		if p.SessionID == active {
			c.svc.Ledger.refreshChanged(active)
		}
	})
}
