package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pilot/backend/childenv"
	"pilot/backend/option"
)

// Defaults of Options.
const (
	DefaultCallTimeout  = 60 * time.Second
	DefaultStartTimeout = 30 * time.Second
	DefaultBackoff      = time.Second
	DefaultMaxBackoff   = time.Minute
	DefaultGrace        = 2 * time.Second
)

// Options of a Hub; zero values are the defaults.
type Options struct {
	Home         string        // PILOT_HOME: the user's mcp.json and the trust file
	Env          []string      // base environment of stdio servers (nil: os.Environ()), through childenv.Env
	Secrets      []string      // saved key values: held (childenv.Hold), so no server gets one
	CallTimeout  time.Duration // per tool call
	StartTimeout time.Duration // to connect and list tools
	Backoff      time.Duration // first wait before a restart, doubled up to MaxBackoff
	MaxBackoff   time.Duration
	Grace        time.Duration // after closing stdin, before SIGTERM (and again before SIGKILL)
	Version      string
	Log          *slog.Logger
	// Private reports whether an allow network rule of project names
	// host: only then may a server's sign-in reach a private address
	// (mcpauth.Client). Nil: never.
	Private func(project, host string) bool
	// OnChange hears every change of a server's state or tools (from the
	// supervisor's goroutine; do not block).
	OnChange func(Status)
}

func (o Options) withDefaults() Options {
	if o.Env == nil {
		o.Env = os.Environ()
	}
	o.CallTimeout = option.Or(o.CallTimeout, DefaultCallTimeout)
	o.StartTimeout = option.Or(o.StartTimeout, DefaultStartTimeout)
	o.Backoff = option.Or(o.Backoff, DefaultBackoff)
	o.MaxBackoff = option.Or(o.MaxBackoff, DefaultMaxBackoff)
	o.Grace = option.Or(o.Grace, DefaultGrace)
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return o
}

// Errors of Call.
var (
	ErrNoServer = errors.New("mcp: no such server")
	ErrNotReady = errors.New("mcp: server not ready")
	ErrTimeout  = errors.New("mcp: the call timed out")
	ErrClosed   = errors.New("mcp: closed")
)

// Hub runs the MCP servers of one project (the user's and, once trusted,
// the project's). Safe for concurrent use.
type Hub struct {
	project string
	opt     Options
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc

	timeout atomic.Int64 // the call timeout in force (nanoseconds)

	mu      sync.Mutex
	servers map[string]*server
	set     Set
	trusted bool
	closed  bool
	loadErr string // why the configuration could not be read, "" when it could
}

// Open reads the configuration of project ("" for the user's servers only)
// and starts the servers in the background; it never waits for them. A
// configuration that cannot be read is returned as an error with an empty,
// usable Hub.
func Open(project string, opt Options) (*Hub, error) {
	opt = opt.withDefaults()
	childenv.Hold(opt.Secrets...)
	h := &Hub{project: project, opt: opt, log: opt.Log, servers: map[string]*server{}}
	h.timeout.Store(int64(opt.CallTimeout))
	h.ctx, h.cancel = context.WithCancel(context.Background())
	return h, h.Reload()
}

// Project is the project folder the hub serves.
func (h *Hub) Project() string { return h.project }

// Reload reads the configuration again: servers removed or changed are
// stopped, new or changed ones started.
func (h *Hub) Reload() error {
	set, err := Load(h.opt.Home, h.project)
	h.mu.Lock()
	h.loadErr = ""
	if err != nil {
		h.loadErr = err.Error()
	}
	h.mu.Unlock()
	if err != nil {
		h.log.Warn("mcp: reading configuration", "err", err)
		return err
	}
	trusted, err := Trusted(h.opt.Home, h.project, set.ProjectHash)
	if err != nil {
		h.log.Warn("mcp: reading trust", "err", err)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return ErrClosed
	}
	h.set, h.trusted = set, trusted
	want := map[string]Entry{}
	for _, e := range set.Entries {
		want[e.Name] = e
	}
	var stop []*server
	for name, s := range h.servers {
		if e, ok := want[name]; !ok || !reflect.DeepEqual(e, s.entry) || (s.cancel != nil) != (whyNot(e, trusted) == "") {
			stop = append(stop, s)
			delete(h.servers, name)
		}
	}
	var start []*server
	for _, e := range set.Entries {
		if _, ok := h.servers[e.Name]; ok {
			continue
		}
		s := &server{entry: e, h: h, state: Disabled}
		h.servers[e.Name] = s
		switch why := whyNot(e, trusted); {
		case why == "":
			s.state = Starting
			start = append(start, s)
		case e.Server.Disabled || (e.Scope == ScopeProject && !trusted):
			s.err = why
		default:
			s.state, s.err = Failed, why
		}
	}
	h.mu.Unlock()
	for _, s := range stop {
		s.stop()
	}
	for _, s := range start {
		s.start(h.ctx)
	}
	return nil
}

// whyNot says why a server is not started, "" when it is.
func whyNot(e Entry, trusted bool) string {
	switch {
	case e.Server.Disabled:
		return "disabled in the configuration"
	case ValidName(e.Name) != nil:
		return ValidName(e.Name).Error()
	case e.Server.Validate() != nil:
		return e.Server.Validate().Error()
	case e.Scope == ScopeProject && !trusted:
		return "waiting for you to trust this project's .mcp.json"
	}
	return ""
}

// NeedsTrust reports whether the project has a .mcp.json the user has not
// trusted (in this version), with the servers it would start.
func (h *Hub) NeedsTrust() (bool, Set) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.set.ProjectHash != "" && !h.trusted, h.set
}

// Trust trusts the project's .mcp.json if it still has hash, and starts
// its servers. A file that changed since the user saw it is refused.
func (h *Hub) Trust(hash string) error {
	set, err := Load(h.opt.Home, h.project)
	if err != nil {
		return err
	}
	if set.ProjectHash != hash {
		return fmt.Errorf("the project's .mcp.json changed since it was shown; look at it again before trusting it")
	}
	if err := Trust(h.opt.Home, h.project, hash); err != nil {
		return fmt.Errorf("saving the trust: %w", err)
	}
	return h.Reload()
}

// ConfigError is why the configuration could not be read ("" when it
// could): the servers of a broken file are not started.
func (h *Hub) ConfigError() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.loadErr
}

// Status lists every configured server by name.
func (h *Hub) Status() []Status {
	h.mu.Lock()
	servers := make([]*server, 0, len(h.servers))
	for _, s := range h.servers {
		servers = append(servers, s)
	}
	h.mu.Unlock()
	out := make([]Status, len(servers))
	for i, s := range servers {
		out[i] = s.status()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Tools lists the tools of the servers that are ready, by server name.
func (h *Hub) Tools() []ToolInfo {
	var out []ToolInfo
	for _, st := range h.Status() {
		if st.State == Ready {
			out = append(out, st.Tools...)
		}
	}
	return out
}

// WaitReady waits until no server is starting (or ctx ends): headless
// runs call it once so that the first model call sees the tools.
func (h *Hub) WaitReady(ctx context.Context) {
	for {
		starting := false
		for _, st := range h.Status() {
			if st.State == Starting {
				starting = true
			}
		}
		if !starting {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Call calls a tool by the name the model sees. The call ends after the
// call timeout, or when ctx ends; either way the server is told to cancel.
func (h *Hub) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	var srv *server
	var tool string
	h.eachServer(func(s *server) {
		for _, t := range s.tools {
			if t.Name == name {
				srv, tool = s, t.Tool
			}
		}
	})
	if srv == nil {
		if err := h.waitsForSignIn(name); err != nil {
			return Result{}, err
		}
		return Result{}, fmt.Errorf("%w: no ready server has the tool %s", ErrNotReady, name)
	}
	return srv.call(ctx, tool, args)
}

func (s *server) call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	s.mu.Lock()
	sess, state, why, auth := s.sess, s.state, s.err, s.auth
	s.mu.Unlock()
	if sess == nil || state != Ready {
		return Result{}, fmt.Errorf("%w: %s is %s %s", ErrNotReady, s.entry.Name, state, why)
	}
	timeout := time.Duration(s.h.timeout.Load())
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clock := startClock(timeout, cancel) // stopped while the user fills a form of the server's
	defer clock.timer.Stop()
	defer s.began(cctx, clock)()
	var a any = map[string]any{}
	if len(args) > 0 && string(args) != "null" {
		a = args
	}
	auth.taken() // a sign-in asked for before this call is not its failure
	res, err := sess.CallTool(cctx, &sdk.CallToolParams{Name: tool, Arguments: a})
	switch signIn := auth.taken(); {
	case err == nil:
		return convert(res), nil
	case ctx.Err() != nil:
		return Result{}, ctx.Err()
	case cctx.Err() != nil:
		return Result{}, fmt.Errorf("%w after %s (server %s, tool %s); the server was told to cancel", ErrTimeout, timeout, s.entry.Name, tool)
	case signIn != nil:
		// The server stopped accepting the sign-in (revoked, expired
		// beyond renewal, more scope): its row says so until the user
		// signs in again, which restarts it.
		s.mu.Lock()
		s.signIn = signIn
		s.mu.Unlock()
		s.h.changed(s)
		return Result{}, signIn
	}
	return Result{}, fmt.Errorf("server %s, tool %s: %v", s.entry.Name, tool, err)
}

// SetCallTimeout changes the timeout of the calls made from now on.
func (h *Hub) SetCallTimeout(d time.Duration) {
	if d > 0 {
		h.timeout.Store(int64(d))
	}
}

// eachServer calls f on each server, holding the hub's lock and the
// server's.
func (h *Hub) eachServer(f func(s *server)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.servers {
		s.mu.Lock()
		f(s)
		s.mu.Unlock()
	}
}

// changed tells OnChange.
func (h *Hub) changed(s *server) {
	if h.opt.OnChange != nil {
		h.opt.OnChange(s.status())
	}
}

// Close stops every server and waits until their processes are reaped.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	servers := make([]*server, 0, len(h.servers))
	for _, s := range h.servers {
		servers = append(servers, s)
	}
	h.mu.Unlock()
	h.cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() { defer wg.Done(); s.stop() }()
	}
	wg.Wait()
}
