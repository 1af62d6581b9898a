package agent

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"

	"pilot/backend/llm"
	"pilot/backend/permission"
)

// RetryCall makes the session's MCP call toolUseID again, the same tool
// with the same input, as a turn of its own (the card's "Retry" after a
// sign-in): the user's request is its message, the call goes through the
// one path every call takes (hooks, the gate, the user's yes, the
// ending), and the model then reads its result as it reads any call's and
// goes on. It fails with ErrBusy while a turn runs.
func (m *Manager) RetryCall(ctx context.Context, sessionID int64, toolUseID string) error {
	calls, err := m.st.ToolCalls.List(ctx, sessionID)
	if err != nil {
		return err
	}
	var use *llm.ContentBlock
	for _, c := range calls {
		if c.ToolUseID == toolUseID {
			use = &llm.ContentBlock{Type: llm.BlockToolUse, ID: "toolu_retry_" + strings.ToLower(rand.Text()), Name: c.Name, Input: c.Input}
		}
	}
	switch {
	case use == nil:
		return errors.New("that call is not in this session any more; ask the agent to make it again")
	case !strings.HasPrefix(use.Name, permission.MCPPrefix):
		return fmt.Errorf("only an MCP server's call is retried this way; ask the agent to call %s again", use.Name)
	}
	l, tctx, err := m.beginIn(ctx, sessionID)
	if err != nil {
		return err
	}
	l.again.put(*use)
	user := []llm.ContentBlock{llm.TextBlock(fmt.Sprintf("(Retry) I signed in to the MCP server; call %s again with the same input.", use.Name))}
	go func() {
		defer m.turns.Done()
		l.run(tctx, user)
	}()
	return nil
}

// retryCall is the call a turn makes before asking the model (RetryCall).
type retryCall struct {
	mu  sync.Mutex
	use *llm.ContentBlock
}

func (r *retryCall) put(use llm.ContentBlock) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.use = &use
}

// take is the call waiting, forgotten now; nil when none waits.
func (r *retryCall) take() *llm.ContentBlock {
	r.mu.Lock()
	defer r.mu.Unlock()
	use := r.use
	r.use = nil
	return use
}

// rerun makes the retried call as the turn's first step: kept as an
// assistant message holding only that call (the history stays one the
// providers accept: every tool result answers a tool_use), then run like
// any call of an answer. It returns a reason to end the turn, or "".
func (t *turn) rerun(ctx context.Context, use llm.ContentBlock) (Reason, error) {
	l := t.l
	msg, err := l.m.st.Messages.Append(context.WithoutCancel(ctx), l.id, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{use}}, llm.Usage{})
	if err != nil {
		return "", fmt.Errorf("saving the retried call: %w", err)
	}
	t.history = append(t.history, msg)
	l.emitMessage(msg)
	return t.runTools(ctx, answer{msg: msg, uses: []llm.ContentBlock{use}})
}
