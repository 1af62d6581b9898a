package cli

import (
	"fmt"
	"strings"

	"pilot/backend/service"
	"pilot/backend/wire"
)

// setTodos starts the terminal from a resumed session's task list, so
// that the first change is told as a change.
func (t *terminal) setTodos(list []wire.TodoItem) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.todos = list
}

// todoChanges prints what changed in the task list: one "→" progress
// line per task added, started, done, reopened or removed (with --json,
// the whole list); t.mu is held.
func (t *terminal) todoChanges(list []wire.TodoItem) {
	prev := t.todos
	t.todos = list
	if t.json {
		t.line(jsonTodos{Type: "todos", Todos: list})
		return
	}
	t.endLine()
	for _, line := range service.TodoChanges(prev, list) {
		fmt.Fprintln(t.tio.Stderr, "→ "+line)
	}
}

// plan prints a presented plan on stdout, where the answer goes; t.mu is
// held.
func (t *terminal) plan(c wire.ToolCall) {
	if t.json || t.planned[c.ID] {
		return
	}
	plan, steps, ok := service.PresentedPlan(c)
	if !ok {
		return
	}
	t.planned[c.ID] = true
	t.endLine()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\nSteps:\n", strings.TrimSpace(plan))
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	fmt.Fprint(t.out, b.String())
}

// planReady tells how to carry out the plan of a plan-mode run.
func (h *headless) planReady() {
	fmt.Fprintf(h.term.tio.Stderr, "pilot: the plan is ready (session %d). To carry it out: pilot -p \"I approve the plan: carry it out\" --resume %d --approve edits (or ask)\n", h.sess.ID, h.sess.ID)
}
