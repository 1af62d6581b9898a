package view

import (
	"pilot/backend/events"
	"pilot/backend/todo"
)

// Todos is a task list as the frontends show it ([] for none).
func Todos(items []todo.Item) []events.TodoItem {
	out := make([]events.TodoItem, len(items))
	for i, it := range items {
		out[i] = events.TodoItem{Content: it.Content, Status: string(it.Status)}
	}
	return out
}
