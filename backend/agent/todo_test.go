package agent

import (
	"context"
	"reflect"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/todo"
	"pilot/backend/wire"
)

// TestTodoWrite: each todo_write that passes its checks replaces the list
// and is published (agent:todos), in the model's order even within one
// answer; one that fails changes nothing. The list is the session's after
// a restart.
func TestTodoWrite(t *testing.T) {
	t.Parallel()
	first := `{"todos":[{"content":"Read the lexer","status":"in_progress"},{"content":"Fix the bug","status":"pending"}]}`
	second := `{"todos":[{"content":"Read the lexer","status":"done"},{"content":"Fix the bug","status":"in_progress"}]}`
	bad := `{"todos":[{"content":"Read the lexer","status":"in_progress"},{"content":"Fix the bug","status":"in_progress"}]}`
	h := newHarness(t, llm.ProviderOpenAI, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("t1", "todo_write", first), toolCall("r1", "read_file", `{"path":"a.txt"}`), toolCall("t2", "todo_write", second)},
			When: &fakellm.When{LastUserContains: "Fix"}},
		{ToolCalls: []fakellm.ToolCall{toolCall("t3", "todo_write", bad)}, When: &fakellm.When{ToolResultContains: "1 of 2 done"}},
		{Text: "Working on it.", When: &fakellm.When{ToolResultContains: "at most one task"}},
	}}, setup{mode: "ask", files: map[string]string{"a.txt": "a\n"}})
	if r := h.turn("Fix the lexer bug"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	var got [][]wire.TodoItem
	for _, p := range h.rec.events(wire.AgentTodos) {
		got = append(got, p.(wire.TodosPayload).Todos)
	}
	want := [][]wire.TodoItem{
		{{Content: "Read the lexer", Status: "in_progress"}, {Content: "Fix the bug", Status: "pending"}},
		{{Content: "Read the lexer", Status: "done"}, {Content: "Fix the bug", Status: "in_progress"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("agent:todos %v, want %v", got, want)
	}
	h.restart()
	tr, err := h.st.Sessions.Transcript(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if items := tr.Todos(); !reflect.DeepEqual(items, []todo.Item{{Content: "Read the lexer", Status: todo.Done}, {Content: "Fix the bug", Status: todo.InProgress}}) {
		t.Errorf("after restart: %v", items)
	}
}
