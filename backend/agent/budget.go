package agent

import (
	"context"
	"fmt"

	"pilot/backend/events"
)

// BudgetTool is the Tool of the command approval that asks whether a turn
// may go past the session's budget.
const BudgetTool = "budget"

// budgetRaise holds the limits the user let the session go to after it
// reached its budget (0: the budget itself).
type budgetRaise struct {
	usd    float64
	tokens int
}

// checkBudget pauses the turn when the session has spent its budget and
// asks the user whether to go on for another budget's worth. It returns a
// reason to end the turn, or "".
func (t *turn) checkBudget(ctx context.Context) string {
	l := t.l
	usdBudget := t.sess.BudgetUSD
	if usdBudget <= 0 {
		usdBudget = l.m.opt.BudgetUSD
	}
	tokBudget := l.m.opt.BudgetTokens
	u := t.sess.Usage
	spentTok := u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens
	spentUSD := t.sess.CostUSD

	l.mu.Lock()
	raised := l.raised
	l.mu.Unlock()
	limitUSD, limitTok := max(usdBudget, raised.usd), max(tokBudget, raised.tokens)
	var over string
	switch {
	case usdBudget > 0 && spentUSD >= limitUSD:
		over = fmt.Sprintf("$%.2f spent, the limit is $%.2f", spentUSD, limitUSD)
	case tokBudget > 0 && spentTok >= limitTok:
		over = fmt.Sprintf("%d tokens used, the limit is %d", spentTok, limitTok)
	default:
		return ""
	}
	l.notice("budget", "The session reached its budget ("+over+"). The turn is paused until you decide.", 0)
	l.setState(AwaitingApproval)
	ans, err := l.m.broker.AskCommand(ctx, l.id, events.Approval{
		Tool:    BudgetTool,
		Command: fmt.Sprintf("Continue past the session budget (%s) for another budget's worth?", over),
	})
	if err != nil {
		if ctx.Err() != nil {
			return ReasonCancelled
		}
		return ReasonBudget
	}
	if !ans.Command.Approve {
		return ReasonBudget
	}
	l.mu.Lock()
	l.raised = budgetRaise{usd: spentUSD + usdBudget, tokens: spentTok + tokBudget}
	l.mu.Unlock()
	l.setState(Streaming)
	return ""
}
