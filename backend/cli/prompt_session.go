package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"pilot/backend/service"
	"pilot/backend/wire"
)

// headless is one terminal run of the agent: the service, with the
// terminal as its face, and the session it works in.
type headless struct {
	svc      *service.Service
	term     *terminal
	sess     wire.SessionSummary
	project  string
	runMode  wire.ApprovalMode // the run's mode (--approve; the REPL's /mode changes it)
	runModel string            // the model --model pinned ("" none; the REPL's /model replaces it)
	log      io.Closer
}

// openHeadless opens the service of PILOT_HOME with the terminal as its
// face and the flags' provider and model, opens the project and creates
// the session (or resumes one), and starts the project's MCP servers.
func openHeadless(ctx context.Context, a runArgs, tio IO) (*headless, error) {
	home, err := service.Home(tio.Getenv)
	if err != nil {
		return nil, err
	}
	h := &headless{runMode: a.approve, runModel: a.model}
	log, closer, err := service.OpenLog(home, tio.Getenv)
	if err != nil {
		log = slog.New(slog.DiscardHandler)
	} else {
		h.log = closer
	}
	h.term = newTerminal(tio, a.json, a.approve, a.elicit)
	svc, err := service.Open(ctx, service.Options{Home: home, Log: log, Getenv: tio.Getenv, Headless: true, Emitter: h.term, Provider: a.provider, Model: a.model})
	if err != nil {
		h.close()
		return nil, err
	}
	h.svc = svc
	h.term.answer = svc.Approvals
	if err := h.session(ctx, a, tio.Getenv); err != nil {
		h.close()
		return nil, err
	}
	for _, problem := range svc.MCP.Ready(ctx, h.root()) {
		fmt.Fprintf(tio.Stderr, "pilot: %s\n", problem)
	}
	for _, note := range untrustedRules(svc, h.project) {
		fmt.Fprintf(tio.Stderr, "pilot: %s\n", note)
	}
	for _, warning := range svc.Settings.Warnings(h.project) {
		fmt.Fprintf(tio.Stderr, "pilot: %s\n", warning)
	}
	return h, nil
}

// session resumes --resume's session in the run's mode, or creates one in
// the project (--project, else PILOT_PROJECT, else the current folder).
func (h *headless) session(ctx context.Context, a runArgs, getenv func(string) string) error {
	if a.resume != 0 {
		err := h.resume(ctx, a.resume, 0)
		if errors.Is(err, service.ErrNoSession) {
			return fmt.Errorf("there is no session %d; pilot sessions list shows a project's sessions", a.resume)
		}
		return err
	}
	dir := a.project
	if dir == "" {
		dir = getenv("PILOT_PROJECT")
	}
	if dir == "" {
		dir = "."
	}
	p, err := h.svc.Projects.Open(ctx, dir)
	if err != nil {
		return err
	}
	s, err := h.svc.Sessions.Start(ctx, p.ID, service.SessionStart{Mode: a.approve, Worktree: a.worktree})
	if err != nil {
		return err
	}
	h.sess, h.project = s, p.Path
	if s.Worktree != "" {
		fmt.Fprintf(h.term.tio.Stderr, "pilot: session %d works in the worktree %s on branch %s.\n", s.ID, s.Worktree, s.Branch)
	}
	return nil
}

// resume continues session id in the run's mode, its task list loaded so
// that the first change is told as a change; a session of another
// project than inProject (0: any) is refused.
func (h *headless) resume(ctx context.Context, id, inProject int64) error {
	s, p, err := h.svc.Sessions.Resume(ctx, id)
	if err != nil {
		return err
	}
	if inProject != 0 && s.ProjectID != inProject {
		return fmt.Errorf("session %d belongs to another project; run pilot repl --resume %d there", id, id)
	}
	if s, err = h.svc.Sessions.SetMode(ctx, id, string(h.runMode)); err != nil {
		return err
	}
	todos, err := h.svc.Sessions.Todos(ctx, id)
	if err != nil {
		return err
	}
	h.term.setTodos(todos)
	h.sess, h.project = s, p.Path
	return nil
}

// root is the folder the session works in: its worktree, or the project.
func (h *headless) root() string {
	if h.sess.Worktree != "" {
		return h.sess.Worktree
	}
	return h.project
}

// close ends the run: the turn stops, a session of this run nobody wrote
// in is deleted, and the service closes.
func (h *headless) close() {
	if h.svc != nil {
		h.svc.Close()
	}
	if h.log != nil {
		h.log.Close()
	}
}
