package service

import (
	"reflect"
	"testing"

	"pilot/backend/wire"
)

// Subscribers get the events of their name whose payload has their type,
// in the order they subscribed; other events pass them by.
func TestSubscribersByNameAndType(t *testing.T) {
	t.Parallel()
	var s subscribers
	var got []string
	subscribe(&s, wire.AgentTurnDone, func(p wire.TurnDonePayload) { got = append(got, "first "+string(p.Reason)) })
	subscribe(&s, wire.AgentTurnDone, func(p wire.TurnDonePayload) { got = append(got, "second "+string(p.Reason)) })
	subscribe(&s, wire.LedgerUpdated, func(wire.LedgerUpdatedPayload) { got = append(got, "ledger") })
	s.publish(wire.AgentTurnDone, wire.TurnDonePayload{Reason: "end_turn"})
	s.publish(wire.AgentTurnDone, wire.LedgerUpdatedPayload{}) // a payload of another type
	s.publish(wire.SessionUpdated, wire.SessionPayload{})      // nobody subscribed
	s.publish(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: 1})
	if want := []string{"first end_turn", "second end_turn", "ledger"}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}
