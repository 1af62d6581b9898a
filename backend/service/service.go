// Package service is Pilot as one application, behind both faces: the
// window's bound App (app.go) and the command line (backend/cli) call it
// for projects, sessions, the agent, the ledger, MCP, providers, settings
// and files, and get back the values of backend/wire.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"pilot/backend/agent"
	"pilot/backend/ledger"
	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/sandbox"
	"pilot/backend/store"
	"pilot/backend/version"
	"pilot/backend/wire"
)

// Service ties the store, the settings and the agent together for one
// PILOT_HOME.
type Service struct {
	home     string
	headless bool // the command line's service (Options.Headless)
	log      *slog.Logger
	getenv   func(string) string
	store    *store.Store
	agent    *agent.Manager
	ledger   *ledger.Ledger
	roots    roots
	mcp      *mcp.Pool
	langs    *languages // the user's language servers (languages.go)
	subs     subscribers

	// started is closed once the start-up work that the first paint does
	// not need is done (startUp): what reads a session's state or runs a
	// turn waits for it (waitStarted).
	started chan struct{}
	// repairErr is why the start-up repair failed (set before started
	// closes): every call that waits for it returns it, so the face shows it.
	repairErr error
	bg        sync.WaitGroup // work started in the background; Close waits for it
	// instance is this process's lock on the data folder (claimInstance);
	// closing it at Close lets it go.
	instance *os.File
	// markers are the sessions whose turn this process runs, marked for
	// the other processes (elsewhere.go); stopWatch ends the window's
	// watch of theirs (nil headless).
	markers   markers
	stopWatch chan struct{}

	mu         sync.RWMutex
	emit       wire.Emitter
	projectDir string // the folder opened last: its .env applies to Settings
	pin        pin    // the face's --provider and --model
	changes    changeLog
	tree       treeListings          // the file tree's folders, kept for their next pages
	fresh      map[int64]bool        // sessions created here, possibly still empty (see dropEmpty)
	probe      func() sandbox.Status // the sandbox's probe (Options.Agent.Sandbox.Probe; nil: sandbox.ProbeNow)
	agentEnv   []string              // the environment hooks are filtered from (Options.Agent.Env; nil: Pilot's)
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
	// Headless is a face without a window (`pilot -p`, `pilot repl`): no
	// project is opened at start (the face opens its own, or resumes a
	// session).
	Headless bool
	// Emitter is the face events go to until SetEmitter (nil: nowhere).
	Emitter wire.Emitter
	// Provider and Model are the face's choice for this run (the CLI's
	// --provider and --model): new sessions are created with them, and
	// every model call uses them over a session's own.
	Provider, Model string
}

// Open opens the service of a data directory: its database (created or
// migrated), the change ledger and the agent. The start-up work the first
// paint does not need (interrupted sessions repaired, pending checkpoints
// settled, empty leftovers deleted) runs in the background; the methods
// that depend on it wait for it. Each step is logged with its duration.
func Open(ctx context.Context, o Options) (*Service, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	t := time.Now()
	st, err := store.Open(ctx, paths.DB(o.Home))
	if err != nil {
		return nil, fmt.Errorf("opening the session database: %w", err)
	}
	t = logStep(o.Log, "open the database", t)
	lg, err := ledger.Open(paths.Checkpoints(o.Home), st, ledger.DefaultLimits, o.Log)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("opening the change ledger under %s: %w", o.Home, err)
	}
	t = logStep(o.Log, "open the change ledger", t)
	distrustFolders(ctx, st, o.Home, o.Log)
	emit := o.Emitter
	if emit == nil {
		emit = wire.Discard{}
	}
	w := &Service{home: o.Home, log: o.Log, getenv: o.Getenv, store: st, ledger: lg, emit: emit,
		started: make(chan struct{}), pin: pin{provider: o.Provider, model: o.Model}, headless: o.Headless}
	w.subscribeOwn()
	w.subscribeMarkers()
	mo := mcp.HomeOptions(o.Home, version.Get().Version, o.Log)
	mo.OnChange = w.mcpChanged
	w.mcp = mcp.NewPool(mo)
	opts := o.Agent
	opts.Titles = true // every face: see docs/ARCHITECTURE.md, "Session titles"
	opts.Sandbox = sandboxOptions(opts.Sandbox, o.Home, o.Log)
	if opts.JobsPerSession == nil {
		opts.JobsPerSession = w.jobsPerSession
	}
	w.probe = opts.Sandbox.Probe
	w.agentEnv = opts.Env
	w.langs = newLanguages(opts.Env, w.userServers(), languageWait(o.Getenv, o.Log), o.Log)
	w.agent = agent.NewManager(agent.Deps{Store: st, Emitter: w, Provider: w.providerFor, Options: opts, Log: o.Log, Ledger: lg, MCP: w.mcpFor, Hooks: w.hooksFor, SettingsRules: w.settingsRulesInForce, Diagnostics: w.langs})
	t = logStep(o.Log, "start the agent", t)
	w.background(func() { w.startUp(context.WithoutCancel(ctx)) })
	dir, from := o.Project, "the folder given"
	if o.Headless {
		return w, nil
	}
	w.stopWatch = make(chan struct{})
	w.background(func() { w.watchElsewhere(w.stopWatch) })
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
	} else if ps, err := st.Projects.List(ctx); err == nil && len(ps) > 0 {
		w.projectDir = ps[0].Path
	}
	logStep(o.Log, "open the project", t)
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

// Emit sends one event to the face, after the service's own subscribers
// (subscribeOwn) have seen it.
func (w *Service) Emit(name string, payload any) {
	w.subs.publish(name, payload)
	w.mu.RLock()
	e := w.emit
	w.mu.RUnlock()
	e.Emit(name, payload)
}

// Close stops running turns and the MCP servers (their processes
// reaped), and closes the database.
// The sessions this service created and nobody wrote in are deleted (the
// user left them).
func (w *Service) Close() {
	w.agent.Close()
	w.langs.close()
	w.dropMarkers()
	if w.stopWatch != nil {
		close(w.stopWatch)
	}
	<-w.started
	w.dropEmpty(context.Background(), 0)
	w.bg.Wait()
	w.ledger.Close()
	w.mcp.Close()
	if err := w.store.Close(); err != nil {
		w.log.Error("closing the database", "err", err)
	}
	if w.instance != nil {
		w.instance.Close()
	}
}
