package store

import (
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// Todos is the session's task list: the input of its latest todo_write
// call that succeeded (nil when there is none).
func (t Transcript) Todos() []todo.Item {
	for i := len(t.ToolCalls) - 1; i >= 0; i-- {
		c := t.ToolCalls[i]
		if c.Name != todo.ToolName || c.Status != wire.ToolDone {
			continue
		}
		if items, err := todo.Parse(c.Input); err == nil {
			return items
		}
	}
	return nil
}
