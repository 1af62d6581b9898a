package service

import (
	"slices"
	"testing"

	"pilot/backend/wire"
)

func TestPresentedPlan(t *testing.T) {
	t.Parallel()
	in := []byte(`{"plan":"# Rename\nMove it.","steps":["rename","test"]}`)
	for _, c := range []struct {
		name string
		call wire.ToolCall
		ok   bool
	}{
		{"a done present_plan", wire.ToolCall{Name: "present_plan", Status: wire.ToolDone, Input: in}, true},
		{"a running present_plan", wire.ToolCall{Name: "present_plan", Status: wire.ToolRunning, Input: in}, false},
		{"another tool", wire.ToolCall{Name: "read_file", Status: wire.ToolDone, Input: in}, false},
		{"input that is not the plan's", wire.ToolCall{Name: "present_plan", Status: wire.ToolDone, Input: []byte(`[1]`)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			plan, steps, ok := PresentedPlan(c.call)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v", ok, c.ok)
			}
			if ok && (plan != "# Rename\nMove it." || !slices.Equal(steps, []string{"rename", "test"})) {
				t.Fatalf("plan %q, steps %q", plan, steps)
			}
		})
	}
}

func TestTodoChanges(t *testing.T) {
	t.Parallel()
	prev := []wire.TodoItem{{Content: "read", Status: wire.TodoInProgress}, {Content: "drop", Status: wire.TodoPending}}
	next := []wire.TodoItem{{Content: "read", Status: wire.TodoDone}, {Content: "write", Status: wire.TodoPending}}
	want := []string{"Task done: read (1/2)", "Task added: write", "Task removed: drop"}
	if got := TodoChanges(prev, next); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]wire.ApprovalMode{"": wire.ModeAsk, " Edits ": wire.ModeEdits, "plan": wire.ModePlan} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, m, err, want)
		}
	}
	_, err := ParseMode("yolo")
	if err == nil || err.Error() != `unknown approval mode "yolo": use plan, ask, edits, all or none` {
		t.Fatalf("ParseMode(yolo): %v", err)
	}
}
