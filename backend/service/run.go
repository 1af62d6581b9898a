package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/mcp"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// pin is the provider and model a face chose for its run (Options); the
// Service's mutex guards it.
type pin struct{ provider, model string }

// ErrNoSession: the session asked for does not exist.
var ErrNoSession = errors.New("there is no such session")

// providerFor builds the model client of a session: the configuration in
// force for its project, with the provider and model the face pinned,
// else those the session was created with (the thinking budget and the
// helpers too, in every face).
func (w *Service) providerFor(ctx context.Context, s store.Session) (agent.Model, error) {
	p, err := w.project(ctx, s.ProjectID)
	if err != nil {
		return agent.Model{}, err
	}
	w.mu.RLock()
	pn := w.pin
	w.mu.RUnlock()
	env := config.Choose(config.Choose(w.getenv, s.Provider, s.Model), pn.provider, pn.model)
	r, err := config.Resolve(w.home, p.Path, env)
	if err != nil {
		return agent.Model{}, err
	}
	prov, err := llm.New(r.LLM())
	return agent.Model{Provider: prov, ThinkingBudget: r.ThinkingBudget(), Helpers: r.Settings.Helpers()}, err
}

// SessionStart is how a session starts; zero values take the
// configuration in force (with the face's pinned provider and model).
type SessionStart struct {
	Mode            wire.ApprovalMode
	Provider, Model string
	// Worktree, when set, is the NAME of a new git worktree the session
	// works in, on the branch pilot/NAME (see NewWorktreeSession).
	Worktree string
}

// NewSession starts an empty session in the project with the provider,
// model, approval mode and budget in force.
func (w *Service) NewSession(ctx context.Context, projectID int64) (wire.SessionSummary, error) {
	return w.StartSession(ctx, projectID, SessionStart{})
}

// StartSession starts an empty session in the project as o says, makes it
// the active one, and deletes the empty sessions this service created
// before (the user left them). A session nobody writes in is deleted when
// the user leaves it or the service closes.
func (w *Service) StartSession(ctx context.Context, projectID int64, o SessionStart) (wire.SessionSummary, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	p, err := w.project(ctx, projectID)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	w.mu.RLock()
	pn := w.pin
	w.mu.RUnlock()
	env := config.Choose(config.Choose(w.getenv, pn.provider, pn.model), o.Provider, o.Model)
	r, err := config.Resolve(w.home, p.Path, env)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	mode := r.ApprovalMode.Value
	if o.Mode != "" {
		mode = string(o.Mode)
	}
	var wt store.Worktree
	if o.Worktree != "" {
		if wt, err = w.addWorktree(ctx, p, o.Worktree); err != nil {
			return wire.SessionSummary{}, err
		}
	}
	w.dropEmpty(ctx, 0)
	s, err := w.store.Sessions.Create(ctx, store.NewSession{
		ProjectID: projectID,
		Provider:  r.Provider.Value, Model: r.Model.Value,
		ApprovalMode: mode, BudgetUSD: r.BudgetUSD,
		Worktree: wt,
	})
	if err != nil {
		if wt.Path != "" {
			_ = w.removeWorktree(ctx, store.Session{ProjectID: projectID, Worktree: wt})
		}
		return wire.SessionSummary{}, err
	}
	w.created(s.ID)
	w.setActive(s.ID)
	return present.Session(s), nil
}

// ResumeSession returns a session to continue, with its project, and
// makes it the active one. An unknown id is ErrNoSession. (The empty
// sessions this service created go when the next one starts or the
// service closes.)
func (w *Service) ResumeSession(ctx context.Context, id int64) (wire.SessionSummary, wire.Project, error) {
	if err := w.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	s, err := w.store.Sessions.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.SessionSummary{}, wire.Project{}, fmt.Errorf("session %d: %w", id, ErrNoSession)
	}
	if err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	p, err := w.project(ctx, s.ProjectID)
	if err != nil {
		return wire.SessionSummary{}, wire.Project{}, err
	}
	w.setActive(id)
	return present.Session(s), present.Project(p), nil
}

// SessionTodos is a session's task list as its last todo_write left it.
func (w *Service) SessionTodos(ctx context.Context, id int64) ([]wire.TodoItem, error) {
	if err := w.waitStarted(ctx); err != nil {
		return nil, err
	}
	tr, err := w.store.Sessions.Transcript(ctx, id)
	if err != nil {
		return nil, err
	}
	return present.Todos(tr.Todos()), nil
}

// SetSessionModel switches a session to model (its provider stays); it
// replaces the model the face pinned, for this and later sessions.
func (w *Service) SetSessionModel(ctx context.Context, id int64, model string) (wire.SessionSummary, error) {
	if err := w.store.Sessions.SetModel(ctx, id, model); err != nil {
		return wire.SessionSummary{}, err
	}
	w.mu.Lock()
	w.pin.model = ""
	w.mu.Unlock()
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return present.Session(s), nil
}

// ExpandCommand turns "/name args" into its custom command's (or MCP
// prompt's) text for the session's project; other text comes back as it
// is.
func (w *Service) ExpandCommand(ctx context.Context, id int64, text string) (string, error) {
	return w.expandCommand(ctx, id, text)
}

// Send starts a turn with text as the model reads it (already expanded:
// no command is looked up); typed is what the user wrote when it was a
// command ("" otherwise), kept beside it for the transcript. The turn
// outlives ctx; CancelTurn stops it.
func (w *Service) Send(ctx context.Context, id int64, typed, text string) error {
	if err := w.waitStarted(ctx); err != nil {
		return err
	}
	if err := w.refuseElsewhere(id); err != nil {
		return err
	}
	return w.agent.SendCommand(context.WithoutCancel(ctx), id, typed, text, nil)
}

// MCPReady starts the MCP servers of the project in dir and waits until
// none is starting (at most their start timeout, or ctx), so that a
// first model call sees their tools. It returns what keeps servers off,
// a sentence each: a broken file, a .mcp.json not trusted yet, a server
// that failed.
func (w *Service) MCPReady(ctx context.Context, dir string) []string {
	h := w.mcp.For(dir)
	var out []string
	if e := h.ConfigError(); e != "" {
		out = append(out, "MCP servers not started: "+e)
	}
	wctx, cancel := context.WithTimeout(ctx, mcp.DefaultStartTimeout+time.Second)
	defer cancel()
	h.WaitReady(wctx)
	if need, _ := h.NeedsTrust(); need {
		out = append(out, fmt.Sprintf("the servers of %s were not started: it is not trusted yet; review and trust it with `pilot mcp trust --project %s`", mcp.ProjectPath(dir), dir))
	}
	for _, s := range h.Status() {
		if s.State == mcp.Failed {
			out = append(out, fmt.Sprintf("MCP server %s failed: %s (pilot mcp get %s shows its stderr)", s.Name, s.Error, s.Name))
		}
	}
	return out
}
