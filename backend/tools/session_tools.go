package tools

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/gate"

	"pilot/backend/todo"
)

// PresentPlanName is the tool that ends a plan-mode turn with a plan
// (named by the gate, which judges it apart in every mode).
const PresentPlanName = gate.PresentPlanTool

// Ordered is implemented by tools that change the session's own state
// (its task list, its plan) and never the project: they are read-only for
// the permission policy and plan mode, but run one at a time in the
// model's order, like change-making calls.
type Ordered interface {
	Ordered() bool
}

// sessionTool is a read-only tool that runs in order.
type sessionTool[P any] struct{ *typedTool[P] }

func (sessionTool[P]) Ordered() bool { return true }

// IsOrdered reports whether t runs in the model's order.
func IsOrdered(t Tool) bool {
	o, ok := t.(Ordered)
	return ok && o.Ordered()
}

// PresentPlanParams is the input of present_plan.
type PresentPlanParams struct {
	Plan  string   `json:"plan" desc:"The plan in Markdown: the goal, the files to change and how, risks, how the result will be checked."`
	Steps []string `json:"steps" desc:"The plan as short ordered steps, a few words each."`
}

func newTodoWrite() Tool {
	return sessionTool[todo.Input]{newTool(todo.ToolName, true, labelTodoWrite, todoWrite)}
}

func labelTodoWrite(in todo.Input) string {
	done, total := todo.Count(in.Todos)
	return fmt.Sprintf("→ Updating the task list (%d of %d done)", done, total)
}

func todoWrite(_ context.Context, in todo.Input) (Result, error) {
	if err := todo.Validate(in.Todos); err != nil {
		return errorf("The task list was not changed: %v. Send the whole list again.", err), nil
	}
	return Result{Output: todo.Summary(in.Todos)}, nil
}

func newPresentPlan() Tool {
	return sessionTool[PresentPlanParams]{newTool(PresentPlanName, true, labelPresentPlan, presentPlan)}
}

func labelPresentPlan(p PresentPlanParams) string {
	return fmt.Sprintf("→ Presenting the plan (%s)", plural(len(p.Steps), "step"))
}

func presentPlan(_ context.Context, p PresentPlanParams) (Result, error) {
	if strings.TrimSpace(p.Plan) == "" {
		return errorf("The plan is empty: write it in `plan` (Markdown) and call present_plan again."), nil
	}
	var steps []string
	for _, s := range p.Steps {
		if strings.TrimSpace(s) != "" {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		return errorf("`steps` is empty: list the plan's steps (a few words each) and call present_plan again."), nil
	}
	return Result{Output: "The plan is shown to the user. Stop here: the user will approve it, edit it, or ask you to keep planning, in their next message."}, nil
}
