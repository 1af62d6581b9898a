package workspace

import (
	"context"
	"fmt"
	"sync"

	"pilot/backend/config"
	"pilot/backend/events"
	"pilot/backend/llm"
	"pilot/backend/sandbox"
	"pilot/backend/store"
	"pilot/backend/tools"
)

// roots caches each project's sandbox root (and the tool registry that
// labels its tool calls).
type roots struct {
	mu sync.Mutex
	m  map[int64]*projectRoot
}

type projectRoot struct {
	root     *sandbox.Root
	registry *tools.Registry
}

func (w *Workspace) projectRoot(ctx context.Context, projectID int64) (*projectRoot, error) {
	w.roots.mu.Lock()
	defer w.roots.mu.Unlock()
	if pr, ok := w.roots.m[projectID]; ok {
		return pr, nil
	}
	p, err := w.project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	root, err := sandbox.New(p.Path)
	if err != nil {
		return nil, err
	}
	pr := &projectRoot{root: root, registry: tools.New(tools.Deps{Root: root})}
	if w.roots.m == nil {
		w.roots.m = map[int64]*projectRoot{}
	}
	w.roots.m[projectID] = pr
	return pr, nil
}

// providerFor builds the model client of a session: the configuration in
// force for its project, with the provider and model the session was
// created with.
func (w *Workspace) providerFor(ctx context.Context, s store.Session) (llm.Provider, error) {
	p, err := w.project(ctx, s.ProjectID)
	if err != nil {
		return nil, err
	}
	r, err := config.Resolve(w.home, p.Path, w.getenv)
	if err != nil {
		return nil, err
	}
	cfg := r.LLM()
	if s.Provider == cfg.Provider && s.Model != "" {
		cfg.Model = s.Model
	}
	return llm.New(cfg)
}

// NewSession starts an empty session in the project with the provider,
// model, approval mode and budget in force.
func (w *Workspace) NewSession(ctx context.Context, projectID int64) (events.SessionSummary, error) {
	p, err := w.project(ctx, projectID)
	if err != nil {
		return events.SessionSummary{}, err
	}
	r, err := config.Resolve(w.home, p.Path, w.getenv)
	if err != nil {
		return events.SessionSummary{}, err
	}
	s, err := w.store.CreateSession(ctx, store.NewSession{
		ProjectID: projectID, Title: "New session",
		Provider: r.Provider.Value, Model: r.Model.Value,
		ApprovalMode: r.ApprovalMode.Value, BudgetUSD: r.BudgetUSD,
	})
	if err != nil {
		return events.SessionSummary{}, err
	}
	w.setActive(s.ID)
	return sessionView(s), nil
}

// GetSession returns everything the chat shows for a session, and makes it
// the active one (whose changed files the file tree marks).
func (w *Workspace) GetSession(ctx context.Context, id int64) (events.SessionDetail, error) {
	s, err := w.store.Session(ctx, id)
	if err != nil {
		return events.SessionDetail{}, err
	}
	msgs, err := w.store.Messages(ctx, id)
	if err != nil {
		return events.SessionDetail{}, err
	}
	calls, err := w.store.ToolCalls(ctx, id)
	if err != nil {
		return events.SessionDetail{}, err
	}
	pr, err := w.projectRoot(ctx, s.ProjectID)
	if err != nil {
		return events.SessionDetail{}, err
	}
	d := events.SessionDetail{
		Session:   sessionView(s),
		Messages:  make([]events.Message, len(msgs)),
		ToolCalls: make([]events.ToolCall, len(calls)),
		Pending:   w.agent.Pending(id),
		Usage:     usageView(s, msgs),
		State:     string(w.agent.State(id)),
	}
	for i, m := range msgs {
		d.Messages[i] = messageView(m)
	}
	for i, c := range calls {
		d.ToolCalls[i] = toolCallView(c, pr.registry.Label(c.Name, c.Input))
	}
	for _, a := range d.Pending {
		for i := range d.ToolCalls {
			if d.ToolCalls[i].ID == a.ToolCallID {
				d.ToolCalls[i].ApprovalID = a.ID
			}
		}
	}
	w.setActive(id)
	return d, nil
}

func usageView(s store.Session, msgs []store.Message) events.Usage {
	cost, known := llm.Cost(s.Model, s.Usage)
	u := events.Usage{
		InputTokens: s.Usage.InputTokens, OutputTokens: s.Usage.OutputTokens,
		CacheReadTokens: s.Usage.CacheReadTokens, CacheWriteTokens: s.Usage.CacheWriteTokens,
		CostUSD: s.CostUSD, CostKnown: known || s.CostUSD > 0,
		ContextWindow: llm.ContextWindow(s.Model),
	}
	if u.CostUSD == 0 {
		u.CostUSD = cost
	}
	// The context in use is what the last model call read and wrote.
	for i := len(msgs) - 1; i >= 0; i-- {
		if mu := msgs[i].Usage; msgs[i].Role == llm.RoleAssistant && mu.InputTokens+mu.OutputTokens > 0 {
			u.ContextTokens = mu.InputTokens + mu.CacheReadTokens + mu.CacheWriteTokens + mu.OutputTokens
			break
		}
	}
	return u
}

// SendMessage starts a turn with the user's text and attached files.
func (w *Workspace) SendMessage(ctx context.Context, id int64, text string, attachments []string) error {
	// The turn outlives the bound call that started it.
	return w.agent.Send(context.WithoutCancel(ctx), id, text, attachments)
}

// CancelTurn stops the session's running turn, if any.
func (w *Workspace) CancelTurn(id int64) error {
	w.agent.Cancel(id)
	return nil
}

// CompactNow summarises the session's older turns.
func (w *Workspace) CompactNow(ctx context.Context, id int64) error {
	return w.agent.CompactNow(ctx, id)
}

// GetChange returns a pending change with every file's hunks.
func (w *Workspace) GetChange(approvalID string) (events.ChangeView, error) {
	return w.agent.Change(approvalID)
}

// DecideChange answers a pending change.
func (w *Workspace) DecideChange(approvalID string, d events.ChangeDecision) error {
	if err := w.agent.DecideChange(approvalID, d); err != nil {
		return fmt.Errorf("this change is no longer waiting for a decision: %w", err)
	}
	return nil
}

// DecideCommand answers a pending command.
func (w *Workspace) DecideCommand(approvalID string, d events.CommandDecision) error {
	if err := w.agent.DecideCommand(approvalID, d); err != nil {
		return fmt.Errorf("this command is no longer waiting for a decision: %w", err)
	}
	return nil
}
