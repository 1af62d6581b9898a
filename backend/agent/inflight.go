package agent

// InFlight is a session whose turn (or compaction) runs, with how many
// approvals it waits for.
type InFlight struct {
	SessionID int64
	Waiting   int
}

// InFlight lists the sessions with work in flight, for the question asked
// before the window closes.
func (m *Manager) InFlight() []InFlight {
	m.mu.Lock()
	ids := make([]int64, 0, len(m.lives))
	for id := range m.lives {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	var out []InFlight
	for _, id := range ids {
		if m.Running(id) {
			out = append(out, InFlight{SessionID: id, Waiting: len(m.broker.Pending(id))})
		}
	}
	return out
}
