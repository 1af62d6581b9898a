package service

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// planned are the sessions whose turn, in this process, ended with a plan
// for the user (reason plan): the inbox lists each while its plan is still
// open, as its card in the chat shows it (the session in plan mode, no
// message of the user after the plan). Like the broker's approvals, it is
// live state: nothing is stored, a restart forgets it (the card stays).
type planned struct{ ids sync.Map } // session id → true

func (p *planned) add(id int64)  { p.ids.Store(id, true) }
func (p *planned) drop(id int64) { p.ids.Delete(id) }

func (p *planned) list() []int64 {
	var out []int64
	p.ids.Range(func(k, _ any) bool {
		out = append(out, k.(int64))
		return true
	})
	slices.Sort(out)
	return out
}

// PlanApprovalPrefix begins the id of a plan's inbox item (its kind is
// plan): "plan_" and the present_plan call's id. It is answered as the
// plan's card answers, with ApprovePlan or a message, never DecideCommand.
const PlanApprovalPrefix = "plan_"

// planItems are the open plans of the sessions in planned, each an inbox
// item whose Reason is the plan as the card approves it (its Markdown,
// then its steps): the agent's words.
func (a *Approvals) planItems(ctx context.Context) ([]wire.InboxItem, error) {
	var out []wire.InboxItem
	for _, id := range a.plans.list() {
		if a.agent.Running(id) {
			continue // a turn runs: the plan is being answered, or the card's answer was refused
		}
		page, err := a.store.Sessions.TranscriptPage(ctx, id, store.PageQuery{Limit: reasonPage})
		if err != nil {
			a.plans.drop(id) // deleted; otherwise its card still answers it
			continue
		}
		call, text, open := openPlan(page)
		if !open {
			if call == nil {
				a.plans.drop(id)
			}
			continue
		}
		p, err := a.store.Projects.Get(ctx, page.Session.ProjectID)
		if err != nil {
			return nil, fmt.Errorf("could not read the project of session %d for the inbox; open it from the session list instead: %w", id, err)
		}
		title := page.Session.Title
		if title == "" {
			_, title = whyAsked(page, call.ToolUseID)
		}
		since := call.FinishedAt
		if since.IsZero() {
			since = call.StartedAt
		}
		out = append(out, wire.InboxItem{
			Approval:    wire.Approval{ID: fmt.Sprintf("%s%d", PlanApprovalPrefix, call.ID), Kind: wire.ApprovalPlan, ToolCallID: call.ToolUseID, Tool: call.Name},
			SessionID:   id,
			Title:       title,
			Branch:      page.Session.Worktree.Branch,
			ProjectID:   p.ID,
			Project:     p.Name,
			ProjectPath: p.Path,
			Reason:      text,
			Since:       since.UnixMilli(),
		})
	}
	return out, nil
}

// openPlan finds the page's last presented plan and its text, and
// whether it still waits: the session is in plan mode and the user wrote
// nothing after it (the card's "answered" and "left"). call is nil when
// the page holds no presented plan, or it was answered.
func openPlan(p store.Page) (call *store.ToolCall, text string, open bool) {
	for i := len(p.ToolCalls) - 1; i >= 0 && call == nil; i-- {
		c := p.ToolCalls[i]
		if plan, steps, ok := presentedPlan(c.Name, c.Status, c.Input); ok {
			call, text = &c, planText(plan, steps)
		}
	}
	if call == nil {
		return nil, "", false
	}
	after := false
	for _, m := range p.Messages {
		if m.ID == call.MessageID {
			after = true
			continue
		}
		if after && m.Role == llm.RoleUser && strings.TrimSpace(messageText(m)) != "" {
			return nil, "", false // answered: approved, or planning goes on
		}
	}
	if !after {
		return nil, "", false
	}
	return call, text, p.Session.ApprovalMode == store.PlanMode
}

// planText is a presented plan as the message that starts its work: its
// Markdown, then its steps (the window's planText, PlanCard.tsx).
func planText(plan string, steps []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(plan))
	if len(steps) > 0 {
		b.WriteString("\n\n## Steps")
		for i, s := range steps {
			fmt.Fprintf(&b, "\n%d. %s", i+1, s)
		}
	}
	return b.String()
}

// presentedPlan is the plan of a present_plan call that ran, with its
// steps; ok is false for any other call.
func presentedPlan(name string, status wire.ToolStatus, input json.RawMessage) (plan string, steps []string, ok bool) {
	if name != tools.PresentPlanName || status != wire.ToolDone {
		return "", nil, false
	}
	var p tools.PresentPlanParams
	if json.Unmarshal(input, &p) != nil {
		return "", nil, false
	}
	return p.Plan, p.Steps, true
}

// byAge orders inbox items oldest first, in the order they were asked
// when asked in the same millisecond.
func byAge(items []wire.InboxItem) {
	slices.SortStableFunc(items, func(x, y wire.InboxItem) int { return cmp.Compare(x.Since, y.Since) })
}
