package agent

import "testing"

func TestTransitionTable(t *testing.T) {
	t.Parallel()
	all := []State{Idle, Streaming, AwaitingApproval, ToolExecuting, Error}
	valid := map[[2]State]bool{
		{Idle, Streaming}:                 true,
		{Streaming, ToolExecuting}:        true,
		{Streaming, Streaming}:            true,
		{Streaming, AwaitingApproval}:     true,
		{Streaming, Idle}:                 true,
		{Streaming, Error}:                true,
		{ToolExecuting, AwaitingApproval}: true,
		{ToolExecuting, Streaming}:        true,
		{ToolExecuting, Idle}:             true,
		{ToolExecuting, Error}:            true,
		{AwaitingApproval, ToolExecuting}: true,
		{AwaitingApproval, Streaming}:     true,
		{AwaitingApproval, Idle}:          true,
		{Error, Streaming}:                true,
		{Error, Idle}:                     true,
	}
	for _, from := range all {
		for _, to := range all {
			want := valid[[2]State{from, to}]
			if got := CanTransition(from, to); got != want {
				t.Errorf("%s -> %s: got %v, want %v", from, to, got, want)
			}
			m := &machine{state: from}
			err := m.to(to)
			if (err == nil) != want {
				t.Errorf("machine %s -> %s: %v", from, to, err)
			}
			if err != nil && m.get() != from {
				t.Errorf("a refused transition moved the machine to %s", m.get())
			}
		}
	}
	// The invalid ones named in the design: no tool runs without the model
	// asking, and nothing waits for approval from idle or error.
	for _, bad := range [][2]State{{Idle, ToolExecuting}, {Idle, AwaitingApproval}, {Error, ToolExecuting}, {Idle, Error}, {AwaitingApproval, Error}} {
		if CanTransition(bad[0], bad[1]) {
			t.Errorf("%s -> %s allowed", bad[0], bad[1])
		}
	}
}
