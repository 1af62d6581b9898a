package service

import (
	"context"

	"pilot/backend/config"
	"pilot/backend/wire"
)

// InFlight is the work closing the window would stop: running turns, the
// approvals they wait for and running background jobs (nothing: it can
// close at once).
func (w *Service) InFlight(ctx context.Context) wire.WorkInFlight {
	out := wire.WorkInFlight{Sessions: []string{}, Jobs: []string{}}
	for _, f := range w.agent.InFlight() {
		out.Waiting += f.Waiting
		out.Sessions = append(out.Sessions, w.SessionTitle(ctx, f.SessionID))
	}
	for _, j := range w.agent.RunningJobs() {
		out.Jobs = append(out.Jobs, jobName(j)+" (session “"+w.SessionTitle(ctx, j.SessionID)+"”)")
	}
	return out
}

// SessionTitle names a session for a notification or a question: its
// title ("Untitled session" before it has one, as the session list says),
// and the branch of a worktree session, "Fix the parser (pilot/parser)".
// "" when the session cannot be read.
func (w *Service) SessionTitle(ctx context.Context, id int64) string {
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		return ""
	}
	name := s.Title
	if name == "" {
		name = "Untitled session"
	}
	if s.Worktree.Branch != "" {
		name += " (" + s.Worktree.Branch + ")"
	}
	return name
}

// SessionProject is the folder of a session's project.
func (w *Service) SessionProject(ctx context.Context, id int64) (string, error) {
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		return "", err
	}
	p, err := w.store.Projects.Get(ctx, s.ProjectID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// NotificationsOn reads the Settings switch of desktop notifications.
func (w *Service) NotificationsOn() bool {
	s, err := config.LoadSettings(w.home)
	if err != nil && !isCorrupt(err) {
		w.log.Warn("reading the settings for notifications", "err", err)
	}
	return !s.NotificationsOff
}
