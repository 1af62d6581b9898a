package agent

import (
	"fmt"
	"sync"
)

// State is where a session's agent stands; the values are the UI's
// agent-state.
type State string

const (
	Idle             State = "idle"
	Streaming        State = "streaming"
	AwaitingApproval State = "awaiting_approval"
	ToolExecuting    State = "tool_executing"
	Error            State = "error"
)

// transitions is the whole state machine: from each state, the states it
// may move to. Anything else is a bug in the loop.
//
//	idle              -> streaming          a turn (or a compaction) calls the model
//	streaming         -> tool_executing     the answer asked for tools
//	streaming         -> streaming          a retry, a compaction, the next call
//	streaming         -> awaiting_approval  the budget is reached and the user is asked
//	streaming         -> idle               the answer is complete, or cancelled
//	streaming         -> error              the call failed
//	tool_executing    -> awaiting_approval  a change or command needs the user
//	tool_executing    -> streaming          the results go back to the model
//	tool_executing    -> idle               cancelled, loop guard, limit
//	tool_executing    -> error              a tool failed the machine (store, disk)
//	awaiting_approval -> tool_executing     decided: run or record the refusal
//	awaiting_approval -> streaming          the budget was raised
//	awaiting_approval -> idle               cancelled, or the budget was kept
//	error             -> streaming          the user sends again
//	error             -> idle               the user acknowledged, or compacts
var transitions = map[State][]State{
	Idle:             {Streaming},
	Streaming:        {ToolExecuting, Streaming, AwaitingApproval, Idle, Error},
	ToolExecuting:    {AwaitingApproval, Streaming, Idle, Error},
	AwaitingApproval: {ToolExecuting, Streaming, Idle},
	Error:            {Streaming, Idle},
}

// CanTransition reports whether the machine may go from one state to
// another.
func CanTransition(from, to State) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// machine is one session's state, guarded for reads from other goroutines.
type machine struct {
	mu    sync.Mutex
	state State
}

// to moves the machine; an invalid transition is refused with an error
// that names both states.
func (m *machine) to(s State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !CanTransition(m.state, s) {
		return fmt.Errorf("agent: invalid state transition %s -> %s", m.state, s)
	}
	m.state = s
	return nil
}

func (m *machine) get() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}
