package service

import (
	"context"
	"io"
	"log/slog"
	"os"

	"pilot/backend/hostexec"
	"pilot/backend/paths"
	"pilot/backend/store"
)

// distrustFolders tells hostexec every folder a sandboxed command may have
// written, in this run or an earlier one: every project Pilot knows and
// every worktree. No program Pilot starts on the host (a language server,
// git, a hook's shell) is taken from them; a skip is logged to log.
func distrustFolders(ctx context.Context, st *store.Store, home string, log *slog.Logger) {
	hostexec.SetLog(log)
	hostexec.Distrust(paths.Worktrees(home))
	ps, err := st.Projects.List(ctx)
	if err != nil {
		log.Warn("listing the projects whose folders no program is taken from", "err", err)
		return
	}
	for _, p := range ps {
		hostexec.Distrust(p.Path)
	}
}

// doctorFolders is distrustFolders for `pilot doctor`, which opens no
// Service: home's log, and its database when there is one (a machine
// whose data cannot be opened is checked too). done closes the log.
func doctorFolders(ctx context.Context, home string) (done func()) {
	log, closer, err := OpenLog(home, os.Getenv)
	if err != nil {
		log, closer = slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	done = func() {
		hostexec.SetLog(nil)
		_ = closer.Close()
	}
	hostexec.SetLog(log)
	hostexec.Distrust(paths.Worktrees(home))
	if _, err := os.Stat(paths.DB(home)); err != nil {
		return done
	}
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		log.Warn("doctor: the database could not be opened to list the projects", "err", err)
		return done
	}
	defer st.Close()
	distrustFolders(ctx, st, home, log)
	return done
}
