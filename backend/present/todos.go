package present

import (
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// Todos is a task list as the frontends show it ([] for none).
func Todos(items []todo.Item) []wire.TodoItem {
	out := make([]wire.TodoItem, len(items))
	for i, it := range items {
		out[i] = wire.TodoItem{Content: it.Content, Status: wire.TodoStatus(it.Status)}
	}
	return out
}
