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
	"pilot/backend/modelfacts"
	"pilot/backend/paths"
	"pilot/backend/sandbox"
	"pilot/backend/store"
	"pilot/backend/version"
	"pilot/backend/wire"
)

// Service ties the store, the settings and the agent together for one
// PILOT_HOME. The faces call its sub-services, one per subject, each in
// its own files; its own methods are its life cycle.
type Service struct {
	Sessions  *Sessions  // list, create, resume, rename, fork, export; a session's page, mode and model (sessions*.go)
	Turns     *Turns     // send a message, cancel, retry, compact (turns*.go)
	Approvals *Approvals // the question a turn waits on (approvals.go)
	Records   *Records   // the read-only history (history.go)
	Projects  *Projects  // open, add, find (projects.go)
	Files     *Files     // the file tree and previews (files*.go)
	Git       *Git       // status, branch, merge, commit (git_*.go)
	Worktrees *Worktrees // a session's own worktree (worktrees.go)
	Ledger    *Ledger    // the changes and their restores (ledger*.go)
	Rules     *Rules     // approval rules, Pilot's and imported (rules*.go)
	Settings  *Settings  // settings.json of Pilot, providers and models (settings*.go)
	Sandbox   *Sandbox   // the sandbox's status and its lists (sandbox.go)
	Languages *Languages // the language servers (languages.go)
	MCP       *MCP       // the MCP pool, servers and their trust (mcp*.go)
	Trust     *Trust     // a project's trust (trust.go)
	Setup     *Setup     // what a project has set up (setup*.go)
	Jobs      *Jobs      // a session's background jobs (jobs.go)
	Web       *Web       // the web_search tool's search service (websearch.go)
	Comments  *Comments  // comments on lines and the review that sends them (comments.go)
	Reviews   *Reviews   // /review and its findings (reviews.go)

	core *core
}

// core is what the sub-services share: each embeds it, and reaches the
// others through svc.
type core struct {
	svc       *Service
	elsewhere *elsewhere // the runs of other processes (elsewhere.go)

	home     string
	headless bool // the command line's service (Options.Headless)
	log      *slog.Logger
	getenv   func(string) string
	store    *store.Store
	agent    *agent.Manager
	ledger   *ledger.Ledger
	roots    roots
	mcp      *mcp.Pool
	facts    *modelfacts.Catalog // what servers said of their models
	resolved resolvedMemo        // the sessions' configurations (resolvePinned)
	langs    *diagnostics        // the user's language servers (languages.go)
	subs     subscribers
	plans    planned // the sessions whose turn ended with a plan (inbox_plans.go)

	// started is closed once the start-up work that the first paint does
	// not need is done (startUp): what reads a session's state or runs a
	// turn waits for it (waitStarted).
	started chan struct{}
	// repairErr is why the start-up repair failed (set before started
	// closes): every call that waits for it returns it, so the face shows it.
	repairErr error
	bg        sync.WaitGroup // work started in the background; Close waits for it
	signIns   signIns        // MCP sign-ins under way in the window
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

// newService holds c's sub-services.
func newService(c *core) *Service {
	c.elsewhere = &elsewhere{c}
	c.svc = &Service{core: c, Sessions: &Sessions{c}, Turns: &Turns{c}, Approvals: &Approvals{c},
		Records: &Records{c}, Projects: &Projects{c}, Files: &Files{c}, Git: &Git{c}, Worktrees: &Worktrees{c},
		Ledger: &Ledger{c}, Rules: &Rules{c}, Settings: &Settings{c}, Sandbox: &Sandbox{c}, Languages: &Languages{c},
		MCP: &MCP{c}, Trust: &Trust{c}, Setup: &Setup{c}, Jobs: &Jobs{c}, Web: &Web{core: c},
		Comments: &Comments{c}, Reviews: &Reviews{c}}
	return c.svc
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
	c := &core{home: o.Home, log: o.Log, getenv: o.Getenv, store: st, ledger: lg, emit: emit, facts: modelfacts.NewCatalog(o.Home, o.Log),
		started: make(chan struct{}), pin: pin{provider: o.Provider, model: o.Model}, headless: o.Headless}
	s := newService(c)
	c.subscribeOwn()
	c.elsewhere.subscribe()
	mo := mcp.HomeOptions(o.Home, version.Get().Version, o.Log)
	mo.OnChange = s.MCP.changed
	mo.Private = s.Rules.networkNamed
	c.mcp = mcp.NewPool(mo)
	opts := o.Agent
	opts.Titles = true // every face: see docs/ARCHITECTURE.md, "Session titles"
	opts.Sandbox = c.sandboxOptions(opts.Sandbox)
	if opts.JobsPerSession == nil {
		opts.JobsPerSession = s.Jobs.perSession
	}
	if opts.WebSearch == nil {
		opts.WebSearch = s.Web.searcher
		opts.ProviderSearch = s.Web.providerSearch
	}
	c.probe = opts.Sandbox.Probe
	c.agentEnv = opts.Env
	c.langs = newDiagnostics(opts.Env, s.Languages.userServers(), languageWait(o.Getenv, o.Log), o.Log)
	c.agent = agent.NewManager(agent.Deps{Store: st, Emitter: s, Provider: s.Turns.providerFor, Options: opts, Log: o.Log, Ledger: lg, MCP: s.MCP.toolsFor, Hooks: c.hooksFor, SettingsRules: s.Rules.inForce, Diagnostics: c.langs})
	t = logStep(o.Log, "start the agent", t)
	c.background(func() { c.startUp(context.WithoutCancel(ctx)) })
	dir, from := o.Project, "the folder given"
	if o.Headless {
		return s, nil
	}
	c.stopWatch = make(chan struct{})
	c.background(func() { c.elsewhere.watch(c.stopWatch) })
	if dir == "" {
		dir, from = o.Getenv("PILOT_PROJECT"), "PILOT_PROJECT"
	}
	if dir != "" {
		// Its MCP servers start once the window is up (WindowReady): five
		// node servers starting with the window held its first call back
		// by seconds on two cores.
		if _, err := s.Projects.open(ctx, dir, false); err != nil {
			c.log.Warn(from+" not opened", "err", err)
		}
	} else if ps, err := st.Projects.List(ctx); err == nil && len(ps) > 0 {
		c.projectDir = ps[0].Path
	}
	logStep(o.Log, "open the project", t)
	return s, nil
}

func (c *core) currentProject() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.projectDir
}

// SetEmitter routes events to a frontend.
func (s *Service) SetEmitter(e wire.Emitter) {
	s.core.mu.Lock()
	s.core.emit = e
	s.core.mu.Unlock()
}

// Emit sends one event to the face, after the service's own subscribers
// (subscribeOwn) have seen it.
func (s *Service) Emit(name string, payload any) { s.core.publish(name, payload) }

// publish is Emit for the sub-services.
func (c *core) publish(name string, payload any) {
	c.subs.publish(name, payload)
	c.mu.RLock()
	e := c.emit
	c.mu.RUnlock()
	e.Emit(name, payload)
}

// Close stops running turns and the MCP servers (their processes
// reaped), and closes the database.
// The sessions this service created and nobody wrote in are deleted (the
// user left them).
func (s *Service) Close() {
	s.core.agent.Close()
	s.core.langs.close()
	s.core.elsewhere.dropMarkers()
	if s.core.stopWatch != nil {
		close(s.core.stopWatch)
	}
	<-s.core.started
	s.Sessions.dropEmpty(context.Background(), 0)
	s.core.bg.Wait()
	s.core.facts.Wait()
	s.core.ledger.Close()
	s.core.mcp.Close()
	if err := s.core.store.Close(); err != nil {
		s.core.log.Error("closing the database", "err", err)
	}
	if s.core.instance != nil {
		s.core.instance.Close()
	}
}

// pin is the provider and model a face chose for its run (Options); the
// Service's mutex guards it.
type pin struct{ provider, model string }

// views maps stored values to their views, one for one, or returns err
// when reading them failed. The list is never nil: an empty one is [] in
// JSON.
func views[S, V any](in []S, err error, as func(S) V) ([]V, error) {
	if err != nil {
		return nil, err
	}
	out := make([]V, len(in))
	for i, s := range in {
		out[i] = as(s)
	}
	return out, nil
}

// view is views for one stored value: its view, or the zero view and err
// when reading it failed.
func view[S, V any](in S, err error, as func(S) V) (V, error) {
	if err != nil {
		var zero V
		return zero, err
	}
	return as(in), nil
}
