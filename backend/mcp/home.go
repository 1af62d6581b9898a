package mcp

import (
	"log/slog"
	"sync"
	"time"

	"pilot/backend/config"
)

// HomeOptions are the Options for the servers of PILOT_HOME: the saved
// keys' values (never passed to a server) and the call timeout setting.
func HomeOptions(home, version string, log *slog.Logger) Options {
	o := Options{Home: home, Version: version, Log: log}
	if keys, err := config.LoadKeys(home); err == nil {
		for _, k := range keys {
			o.Secrets = append(o.Secrets, k)
		}
	}
	if s, err := config.LoadSettings(home); err == nil && s.MCPTimeoutSeconds > 0 {
		o.CallTimeout = time.Duration(s.MCPTimeoutSeconds) * time.Second
	}
	return o
}

// Pool keeps one Hub per project folder, opened on first use. Safe for
// concurrent use.
type Pool struct {
	opt  Options
	mu   sync.Mutex
	hubs map[string]*Hub
}

// NewPool returns a Pool whose hubs use opt.
func NewPool(opt Options) *Pool { return &Pool{opt: opt, hubs: map[string]*Hub{}} }

// For returns the hub of project, opening it (and starting its servers
// in the background) on first use. A configuration that cannot be read
// gives a hub without those servers; the error is logged and shown by
// its Status.
func (p *Pool) For(project string) *Hub {
	key := cleanProject(project)
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.hubs[key]; h != nil {
		return h
	}
	h, _ := Open(key, p.opt)
	p.hubs[key] = h
	return h
}

// SetCallTimeout changes the call timeout of every hub, and of those
// opened later.
func (p *Pool) SetCallTimeout(d time.Duration) {
	if d <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opt.CallTimeout = d
	for _, h := range p.hubs {
		h.SetCallTimeout(d)
	}
}

// CloseProject stops the servers of one project (the project was closed).
func (p *Pool) CloseProject(project string) {
	key := cleanProject(project)
	p.mu.Lock()
	h := p.hubs[key]
	delete(p.hubs, key)
	p.mu.Unlock()
	if h != nil {
		h.Close()
	}
}

// Close stops every server and waits until their processes are reaped.
func (p *Pool) Close() {
	p.mu.Lock()
	hubs := p.hubs
	p.hubs = map[string]*Hub{}
	p.mu.Unlock()
	for _, h := range hubs {
		h.Close()
	}
}
