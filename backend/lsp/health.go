package lsp

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"pilot/backend/hostexec"
)

// health is how a server has fared in one folder: its failures in a row
// (for the backoff) and a crash nobody has been told of yet.
type health struct {
	fails   int
	next    time.Time // no start before this
	pending string    // a crash not reported yet
}

// healthyAfter is how long a server must run before its failures count
// from zero again.
const healthyAfter = time.Minute

// backoff is the pause before the n-th start after a failure: none for
// the first (a server killed once is back for the same change), then 1 s,
// 2 s, ... up to 30 s.
func backoff(n int) time.Duration {
	if n <= 1 {
		return 0
	}
	return min(time.Second<<min(n-2, 5), 30*time.Second)
}

// client returns the running server of cfg for root, starting it when
// there is none (after the backoff, if its last run failed), and the
// failures not reported yet.
func (m *Manager) client(ctx context.Context, cfg ServerConfig, exe, root string) (*client, []string, error) {
	k := key{cfg.Name, root}
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, nil, context.Canceled
		}
		var failed []string
		h := m.health[k]
		if h != nil && h.pending != "" {
			failed, h.pending = []string{h.pending}, ""
		}
		if c := m.clients[k]; c != nil && c.alive() {
			m.mu.Unlock()
			return c, failed, nil
		}
		if h != nil {
			if wait := time.Until(h.next); wait > 0 {
				m.mu.Unlock()
				if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
					return nil, append(failed, fmt.Sprintf("%s is not running (%s); Pilot tries again in %s",
						cfg.Name, strings.TrimPrefix(m.lastError(cfg.Name), cfg.Name+" "), wait.Round(time.Second))), errBackoff
				}
				t := time.NewTimer(wait)
				select {
				case <-t.C:
					if failed != nil { // keep it for the return after the wait
						m.putBack(k, failed[0])
					}
					continue
				case <-ctx.Done():
					t.Stop()
					return nil, failed, ctx.Err()
				}
			}
		}
		c, err := startClient(cfg, exe, root, m.opts.Env, m.log, m.onExit)
		if err != nil {
			msg := fmt.Sprintf("%s could not start: %v", cfg.Name, err)
			m.failLocked(k, msg, time.Time{})
			failed = append(failed, msg)
			m.mu.Unlock()
			return nil, failed, err
		}
		m.clients[k] = c
		m.mu.Unlock()
		return c, failed, nil
	}
}

// putBack keeps a failure to report for the next caller.
func (m *Manager) putBack(k key, msg string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h := m.health[k]; h != nil && h.pending == "" {
		h.pending = msg
	}
}

// errBackoff: a server that failed waits longer than the change can.
var errBackoff = errors.New("the server waits to be started again")

// lastError is the last failure of the server called name.
func (m *Manager) lastError(name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lastErr[name]
}

// failLocked records a failure of server k (one started at started, or
// zero when it never ran): its last error and the backoff.
func (m *Manager) failLocked(k key, msg string, started time.Time) {
	m.log.Warn("language server failed", "server", k.name, "root", k.root, "error", msg)
	m.lastErr[k.name] = msg
	h := m.health[k]
	if h == nil || (!started.IsZero() && time.Since(started) > healthyAfter) {
		h = &health{}
		m.health[k] = h
	}
	h.fails++
	h.next = time.Now().Add(backoff(h.fails))
}

// failed stops a server that failed a request or its start, records it,
// and returns the sentence to report.
func (m *Manager) failed(c *client, err error) []string {
	k := key{c.cfg.Name, c.root}
	msg := fmt.Sprintf("%s stopped working: %v", c.cfg.Name, err)
	exited := false
	select {
	case <-c.exited:
		exited = true
		msg = fmt.Sprintf("%s stopped unexpectedly (%v); Pilot starts it again for the next change", c.cfg.Name, c.exitErr)
	default:
		if c.initErr != nil {
			msg = c.initErr.Error()
		}
	}
	m.mu.Lock()
	if m.clients[k] == c {
		delete(m.clients, k)
	}
	out := []string{msg}
	if h := m.health[k]; exited && h != nil && h.pending != "" {
		out, h.pending = []string{h.pending}, "" // onExit recorded it: say it once
	} else if !c.stopping.Load() {
		m.failLocked(k, msg, c.started)
	}
	c.stopping.Store(true)
	m.mu.Unlock()
	go c.stop(stopGrace)
	return out
}

// onExit notes a server that exited while nobody stopped it (a crash):
// it is reported with the next change it serves, and restarted then.
func (m *Manager) onExit(c *client) {
	if c.stopping.Load() {
		return
	}
	k := key{c.cfg.Name, c.root}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clients[k] != c {
		return
	}
	delete(m.clients, k)
	msg := fmt.Sprintf("%s stopped unexpectedly (%v); Pilot started it again", c.cfg.Name, c.exitErr)
	m.failLocked(k, msg, c.started)
	m.health[k].pending = msg
}

// use counts a caller of c in (+1) or out (-1) and keeps its idle timer.
func (m *Manager) use(c *client, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy += delta
	c.lastUse = time.Now()
	if c.idle == nil {
		c.idle = time.AfterFunc(m.opts.Idle, func() { m.idleStop(c) })
	} else {
		c.idle.Reset(m.opts.Idle)
	}
}

// idleStop stops c if nobody used it for idle; else waits again.
func (m *Manager) idleStop(c *client) {
	c.mu.Lock()
	// A caller is done within the wait; one stuck longer (writing to a
	// server that reads nothing) does not keep the server.
	unused := time.Since(c.lastUse)
	if rest := m.opts.Idle - unused; rest > 0 || (c.busy > 0 && unused < m.opts.Idle+m.opts.Wait) {
		c.idle.Reset(max(rest, m.opts.Idle/4))
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	k := key{c.cfg.Name, c.root}
	m.mu.Lock()
	if m.clients[k] == c {
		delete(m.clients, k)
	}
	m.mu.Unlock()
	m.log.Info("language server idle: stopped", "server", c.cfg.Name, "root", c.root)
	c.stop(stopGrace)
}

// current is the last diagnostics published for the file at abs.
func (c *client) current(abs string) []lspDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.diags[abs]; p != nil {
		return p.items
	}
	return nil
}

// versionCache keeps each server executable's version, asked once, and a
// failed ask for versionRetry: a server that always fails or hangs on
// --version is not asked again (up to versionTimeout) on every listing.
type versionCache struct {
	mu     sync.Mutex
	m      map[string]string
	failed map[string]time.Time // exe → when its ask failed
	now    func() time.Time     // time.Now; tests move it
}

// versionTimeout bounds asking a server for its version; versionRetry is
// how long a failed ask is kept before the server is asked again.
const (
	versionTimeout = 5 * time.Second
	versionRetry   = time.Minute
)

// get returns the version exe prints (its first line), asking it once,
// with a PATH that leaves out the project root (hostexec.Env): a script
// server (#!/usr/bin/env node) finds its interpreter as Pilot would. A
// failed or timed-out answer ("") is kept only for versionRetry: a busy
// machine at the first ask does not leave the version blank for the rest
// of the run, and a server that never answers is not waited for each time.
func (v *versionCache) get(exe string, args, env []string, root string) string {
	now := time.Now
	if v.now != nil {
		now = v.now
	}
	v.mu.Lock()
	s, ok := v.m[exe]
	at, failed := v.failed[exe]
	v.mu.Unlock()
	if ok {
		return s
	}
	if failed && now().Sub(at) < versionRetry {
		return ""
	}
	if len(args) == 0 {
		args = []string{"--version"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = hostexec.Env(env, root)
	out, err := cmd.Output()
	v.mu.Lock()
	defer v.mu.Unlock()
	if err != nil {
		if v.failed == nil {
			v.failed = map[string]time.Time{}
		}
		v.failed[exe] = now()
		return ""
	}
	s, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	s = strings.TrimSpace(s)
	if v.m == nil {
		v.m = map[string]string{}
	}
	v.m[exe] = s
	delete(v.failed, exe)
	return s
}
