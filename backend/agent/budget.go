package agent

import (
	"context"
	"fmt"

	"pilot/backend/gate"
	"pilot/backend/wire"
)

// budgetRaise holds the limits the user let the session go to after it
// reached its budget (0: the budget itself).
type budgetRaise struct {
	usd    float64
	tokens int
}

// checkBudget pauses the turn when the session has spent its budget and
// asks the user (an approval of the budget kind, through the gate) whether
// to go on for another budget's worth. It returns a
// reason to end the turn, or "".
func (t *turn) checkBudget(ctx context.Context) string {
	l := t.l
	sp := t.spending()
	if sp.over == "" {
		return ""
	}
	l.notice("budget", "The session reached its budget ("+sp.over+"). The turn is paused until you decide.", 0)
	l.setState(AwaitingApproval)
	d := t.judge(ctx, gate.Call{Budget: true})
	ans, err := t.ask(ctx, nil, d, wire.Approval{
		Command: fmt.Sprintf("Continue past the session budget (%s) for another budget's worth?", sp.over),
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
	l.raised = budgetRaise{usd: sp.usd + sp.usdBudget, tokens: sp.tokens + sp.tokBudget}
	l.mu.Unlock()
	l.setState(Streaming)
	return ""
}

// spent is what the session has used against its budget.
type spent struct {
	usd, usdBudget    float64
	tokens, tokBudget int
	over              string // "" while under the budget (or the raised limit)
}

// spending reads the session's use against its budget and the limit the
// user raised it to.
func (t *turn) spending() spent {
	l := t.l
	t.own.mu.Lock()
	u, cost, sessBudget := t.sess.Usage, t.sess.CostUSD, t.sess.BudgetUSD
	t.own.mu.Unlock()
	sp := spent{usd: cost, tokens: u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens}
	usdBudget := sessBudget
	if usdBudget <= 0 {
		usdBudget = l.m.opt.BudgetUSD
	}
	tokBudget := l.m.opt.BudgetTokens
	sp.usdBudget, sp.tokBudget = usdBudget, tokBudget
	l.mu.Lock()
	raised := l.raised
	l.mu.Unlock()
	limitUSD, limitTok := max(usdBudget, raised.usd), max(tokBudget, raised.tokens)
	switch {
	case usdBudget > 0 && sp.usd >= limitUSD:
		sp.over = fmt.Sprintf("$%.2f spent, the limit is $%.2f", sp.usd, limitUSD)
	case tokBudget > 0 && sp.tokens >= limitTok:
		sp.over = fmt.Sprintf("%d tokens used, the limit is %d", sp.tokens, limitTok)
	}
	return sp
}
