package tools

import (
	"strings"
	"testing"

	"pilot/backend/customagent"
	"pilot/backend/projectroot"
)

// The task tool's description lists the custom agents there are when it
// is read, and the label names the agent.
func TestTaskListsAgents(t *testing.T) {
	t.Parallel()
	root, err := projectroot.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	set := customagent.Set{}
	reg := New(Deps{Root: root, Agents: func() customagent.Set { return set }})
	task, _ := reg.Get(TaskTool)
	if strings.Contains(task.Description(), "Custom agents") {
		t.Fatal("the description lists agents while there are none")
	}
	set = customagent.Set{Agents: []customagent.Agent{{Name: "code-reviewer", Description: "Reviews code after a change."}}}
	if d := task.Description(); !strings.HasSuffix(d, "\n- code-reviewer: Reviews code after a change.") || !strings.Contains(d, "give its name as subagent_type") {
		t.Fatalf("description %q", d)
	}
	if l := reg.Label(TaskTool, []byte(`{"description":"review the diff","prompt":"p","subagent_type":"code-reviewer"}`)); l != "→ Agent code-reviewer: review the diff" {
		t.Fatalf("label %q", l)
	}
}
