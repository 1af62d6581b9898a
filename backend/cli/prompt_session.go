package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"pilot/backend/agent"
	"pilot/backend/config"
	"pilot/backend/llm"
	"pilot/backend/logging"
	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/store"
	"pilot/backend/tools"
)

// headless is one terminal run of the agent: the database, a Manager whose
// events go to the terminal, and the session it works in.
type headless struct {
	st      *store.Store
	m       *agent.Manager
	term    *terminal
	sess    store.Session
	project string
	args    *runArgs // the flags in force (the REPL's /model changes the model)
	home    string
	hub     *mcp.Hub
	closers []io.Closer
}

// openHeadless opens the database under PILOT_HOME, resolves the project
// and the model, and creates (or resumes) the session.
func openHeadless(ctx context.Context, a runArgs, tio IO) (*headless, error) {
	home, err := paths.Home(tio.Getenv)
	if err != nil {
		return nil, err
	}
	if err := paths.Ensure(home); err != nil {
		return nil, err
	}
	h := &headless{args: &a}
	log, closer, err := logging.Open(paths.LogDir(home), slog.LevelInfo, config.LogRedactor(tio.Getenv))
	if err != nil {
		log = slog.New(slog.DiscardHandler)
	} else {
		h.closers = append(h.closers, closer)
	}
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		h.close()
		return nil, fmt.Errorf("opening the session database: %w", err)
	}
	h.st = st
	h.closers = append(h.closers, st)
	env := config.Choose(tio.Getenv, a.provider, a.model)
	if err := h.session(ctx, a, home, env); err != nil {
		h.close()
		return nil, err
	}
	h.term = newTerminal(tio, a.json, a.approve)
	h.loadTodos(ctx)
	lg, err := openLedger(ctx, home, st, log)
	if err != nil {
		h.close()
		return nil, err
	}
	h.closers = append(h.closers, closerFunc(lg.Close))
	hub := startMCP(ctx, home, h.project, log, tio)
	h.closers = append(h.closers, closerFunc(hub.Close))
	h.home, h.hub = home, hub
	h.m = agent.NewManager(agent.Deps{
		Store:    st,
		Emitter:  h.term,
		Provider: providerFor(st, home, tio.Getenv, h.args),
		Log:      log,
		Ledger:   lg,
		MCP:      func(string) tools.MCP { return hub },
		Options: agent.Options{Sandbox: agent.Sandbox{PilotHome: home, Hidden: func() []string {
			s, _ := config.LoadSettings(home) // a corrupt file was reported when the provider was chosen
			return s.SandboxHidden
		}}},
	})
	h.term.answer = h.m.Approvals()
	if err := h.m.SetApprovalMode(ctx, h.sess.ID, string(a.approve)); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

// session finds the resumed session or creates one in the project.
func (h *headless) session(ctx context.Context, a runArgs, home string, env func(string) string) error {
	if a.resume != 0 {
		s, err := h.st.Session(ctx, a.resume)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("there is no session %d; pilot sessions list shows a project's sessions", a.resume)
		}
		if err != nil {
			return err
		}
		p, err := h.st.Project(ctx, s.ProjectID)
		if err != nil {
			return err
		}
		h.sess, h.project = s, p.Path
		return nil
	}
	dir := a.project
	if dir == "" {
		dir = env("PILOT_PROJECT")
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("the project folder %s does not exist: check --project or PILOT_PROJECT", abs)
	}
	r, err := config.Resolve(home, abs, env)
	if err != nil {
		return err
	}
	p, err := h.st.TouchProject(ctx, abs)
	if err != nil {
		return err
	}
	s, err := h.st.CreateSession(ctx, store.NewSession{
		ProjectID: p.ID, Provider: r.Provider.Value, Model: r.Model.Value, ApprovalMode: string(a.approve), BudgetUSD: r.BudgetUSD,
	})
	if err != nil {
		return err
	}
	h.sess, h.project = s, p.Path
	return nil
}

// providerFor builds a session's model client from the configuration in
// force: the --provider and --model flags, else the session's own
// provider and model, else the environment and the saved settings (the
// thinking budget too, as in the window).
func providerFor(st *store.Store, home string, getenv func(string) string, a *runArgs) func(context.Context, store.Session) (agent.Model, error) {
	return func(ctx context.Context, s store.Session) (agent.Model, error) {
		p, err := st.Project(ctx, s.ProjectID)
		if err != nil {
			return agent.Model{}, err
		}
		env := config.Choose(config.Choose(getenv, s.Provider, s.Model), a.provider, a.model)
		r, err := config.Resolve(home, p.Path, env)
		if err != nil {
			return agent.Model{}, err
		}
		prov, err := llm.New(r.LLM())
		return agent.Model{Provider: prov, ThinkingBudget: r.ThinkingBudget(), Helpers: r.Settings.Helpers()}, err
	}
}

func (h *headless) close() {
	if h.m != nil {
		h.m.Close() // waits for the turn
		h.dropIfEmpty(h.sess.ID)
	}
	for i := len(h.closers) - 1; i >= 0; i-- {
		h.closers[i].Close()
	}
}

// dropIfEmpty deletes a session of this run that holds no message (its
// first message was refused, or the REPL left it unused): a session is
// kept only once something was written in it.
func (h *headless) dropIfEmpty(id int64) {
	if id == 0 || id == h.args.resume {
		return
	}
	ctx := context.Background()
	msgs, err := h.st.Messages(ctx, id)
	if err == nil && len(msgs) == 0 {
		_ = h.st.DeleteSession(ctx, id)
	}
}
