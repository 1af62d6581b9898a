// Package service is Pilot as one application, behind both faces: the
// window's bound App (app.go) and the command line (backend/cli) call it
// for projects, sessions, the agent, the ledger, MCP, providers, settings
// and files, and get back the values of backend/wire.
package service

import (
	"context"
	"log/slog"
	"sync"

	"pilot/backend/agent"
	"pilot/backend/confine"
	"pilot/backend/ledger"
	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/store"
	"pilot/backend/version"
	"pilot/backend/wire"
)

// Service ties the store, the settings and the agent together for one
// PILOT_HOME.
type Service struct {
	home   string
	log    *slog.Logger
	getenv func(string) string
	store  *store.Store
	agent  *agent.Manager
	ledger *ledger.Ledger
	roots  roots
	mcp    *mcp.Pool

	mu         sync.RWMutex
	emit       wire.Emitter
	projectDir string // the folder opened last: its .env applies to Settings
	changes    changeLog
	tree       treeListings          // the file tree's folders, kept for their next pages
	fresh      map[int64]bool        // sessions created here, possibly still empty (see dropEmpty)
	probe      func() confine.Status // the sandbox's probe (Options.Agent.Sandbox.Probe; nil: confine.ProbeNow)
}

// Options configures Open.
type Options struct {
	Home   string
	Log    *slog.Logger
	Getenv func(string) string
	// Agent tunes the loop (tests shorten it); zero values are the defaults.
	Agent agent.Options
	// Project is the folder to open at start (`pilot DIR`); empty:
	// PILOT_PROJECT, else the project opened last.
	Project string
}

// Open opens the service of a data directory: its database (created or
// migrated) with interrupted sessions repaired, and the agent.
func Open(ctx context.Context, o Options) (*Service, error) {
	st, err := store.Open(ctx, paths.DB(o.Home))
	if err != nil {
		return nil, err
	}
	if err := st.RepairAll(ctx); err != nil {
		st.Close()
		return nil, err
	}
	lg, err := ledger.Open(paths.Checkpoints(o.Home), st, ledger.DefaultLimits, o.Log)
	if err != nil {
		st.Close()
		return nil, err
	}
	if err := lg.Repair(ctx); err != nil {
		o.Log.Error("settling checkpoints left pending by a crash", "err", err)
	}
	w := &Service{home: o.Home, log: o.Log, getenv: o.Getenv, store: st, ledger: lg, emit: wire.Discard{}}
	mo := mcp.HomeOptions(o.Home, version.Get().Version, o.Log)
	mo.OnChange = w.mcpChanged
	w.mcp = mcp.NewPool(mo)
	opts := o.Agent
	opts.Titles = true // the window names sessions with the model's help
	opts.Sandbox = sandboxOptions(opts.Sandbox, o.Home)
	w.probe = opts.Sandbox.Probe
	w.agent = agent.NewManager(agent.Deps{Store: st, Emitter: w, Provider: w.providerFor, Options: opts, Log: o.Log, Ledger: lg, MCP: w.mcpFor})
	w.dropLeftovers(ctx)
	dir, from := o.Project, "the folder given"
	if dir == "" {
		dir, from = o.Getenv("PILOT_PROJECT"), "PILOT_PROJECT"
	}
	if dir != "" {
		// Its MCP servers start once the window is up (WindowReady): five
		// node servers starting with the window held its first call back
		// by seconds on two cores.
		if _, err := w.openProject(ctx, dir, false); err != nil {
			w.log.Warn(from+" not opened", "err", err)
		}
	} else if ps, err := st.Projects(ctx); err == nil && len(ps) > 0 {
		w.projectDir = ps[0].Path
	}
	return w, nil
}

func (w *Service) currentProject() string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.projectDir
}

// SetEmitter routes events to a frontend.
func (w *Service) SetEmitter(e wire.Emitter) {
	w.mu.Lock()
	w.emit = e
	w.mu.Unlock()
}

// Emit sends one event to the frontend; a change to the active session's
// ledger refreshes the files the tree marks first.
func (w *Service) Emit(name string, payload any) {
	if _, ok := payload.(wire.TurnDonePayload); ok {
		go w.enforceRetention(w.currentProject()) // off the event path: it stats stored objects
	}
	if p, ok := payload.(wire.LedgerUpdatedPayload); ok {
		w.mu.RLock()
		active := w.changes.active
		w.mu.RUnlock()
		if p.SessionID == active {
			w.refreshChanged(active)
		}
	}
	w.mu.RLock()
	e := w.emit
	w.mu.RUnlock()
	e.Emit(name, payload)
}

// Close stops running turns and the MCP servers (their processes
// reaped), and closes the database.
func (w *Service) Close() {
	w.agent.Close()
	w.ledger.Close()
	w.mcp.Close()
	if err := w.store.Close(); err != nil {
		w.log.Error("closing the database", "err", err)
	}
}
