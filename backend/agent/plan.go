package agent

import (
	_ "embed"

	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/todo"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// ReasonPlan: the turn ended with a plan for the user (present_plan).
const ReasonPlan Reason = "plan"

//go:embed plan.md
var planPrompt string

// defs are the tools offered to the model under the turn's mode: in plan
// mode the read-only ones (present_plan among them), else every tool but
// present_plan.
func (t *turn) defs() []llm.ToolDef {
	all := t.l.registry.Tools()
	defs := make([]llm.ToolDef, 0, len(all))
	for _, tool := range all {
		plan := t.mode == permission.ModePlan
		if (plan && !tool.ReadOnly()) || (!plan && tool.Name() == tools.PresentPlanName) {
			continue
		}
		defs = append(defs, llm.ToolDef{Name: tool.Name(), Description: tool.Description(), InputSchema: tool.Schema()})
	}
	return defs
}

// systemPrompt is the turn's system prompt under its mode.
func (t *turn) systemPrompt() string {
	if t.mode == permission.ModePlan {
		return t.system + planPrompt
	}
	return t.system
}

// setMode takes the session's mode in force now: a mode switched during
// a turn holds from its next model call.
func (t *turn) setMode() { t.mode = t.l.approvalMode(t.sess) }

// afterSessionTool publishes what a session tool changed: a new task
// list (agent:todos).
func (t *turn) afterSessionTool(r *toolRun) {
	if r.use.Name != todo.ToolName || r.out.status != wire.ToolDone {
		return
	}
	items, err := todo.Parse(r.use.Input)
	if err != nil {
		return
	}
	v := present.Todos(items)
	t.l.send(wire.AgentTodos, func(q wire.Seq) any { return wire.TodosPayload{Seq: q, Todos: v} })
}

// planned reports whether the answer's runs presented a plan.
func planned(runs []*toolRun) bool {
	for _, r := range runs {
		if r.use.Name == tools.PresentPlanName && r.out.status == wire.ToolDone {
			return true
		}
	}
	return false
}
