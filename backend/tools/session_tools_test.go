package tools

import (
	"encoding/json"
	"testing"
)

func TestSessionTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	for _, tc := range []struct {
		name, tool, in string
		isErr          bool
		want           string
	}{
		{"list", "todo_write", `{"todos":[{"content":"Read","status":"done"},{"content":"Write","status":"in_progress"},{"content":"Test","status":"pending"}]}`, false, `1 of 3 done, 1 pending, in progress: "Write"`},
		{"empty list", "todo_write", `{"todos":[]}`, false, "now empty"},
		{"two in progress", "todo_write", `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`, true, "tasks 1, 2 are all in_progress"},
		{"unknown status", "todo_write", `{"todos":[{"content":"a","status":"completed"}]}`, true, `"todos[0].status" must be one of pending, in_progress, done`},
		{"blank task", "todo_write", `{"todos":[{"content":"  ","status":"pending"}]}`, true, "todos[0] has no content"},
		{"no todos", "todo_write", `{}`, true, `"todos" is missing`},
		{"plan", "present_plan", `{"plan":"# Goal\nDo it","steps":["one","two"]}`, false, "Stop here"},
		{"empty plan", "present_plan", `{"plan":" ","steps":["one"]}`, true, "The plan is empty"},
		{"no steps", "present_plan", `{"plan":"x","steps":[""]}`, true, "`steps` is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := f.reg.Execute(t.Context(), tc.tool, json.RawMessage(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			expect(t, res, tc.isErr, tc.want)
			if res.Proposal != nil {
				t.Errorf("%s proposed a change: %+v", tc.tool, res.Proposal)
			}
		})
	}
}

// The session's tools only look (plan mode allows them) but run in the
// model's order; the project's read-only tools stay concurrent.
func TestOrderedTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	for name, want := range map[string]bool{"todo_write": true, "present_plan": true, "read_file": false, "write_file": false} {
		tool, ok := f.reg.Get(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		if IsOrdered(tool) != want {
			t.Errorf("IsOrdered(%s) = %v", name, !want)
		}
	}
	if got := f.reg.Label("todo_write", json.RawMessage(`{"todos":[{"content":"a","status":"done"},{"content":"b","status":"pending"}]}`)); got != "→ Updating the task list (1 of 2 done)" {
		t.Errorf("label %q", got)
	}
	if got := f.reg.Label("present_plan", json.RawMessage(`{"plan":"x","steps":["a","b","c"]}`)); got != "→ Presenting the plan (3 steps)" {
		t.Errorf("label %q", got)
	}
}
