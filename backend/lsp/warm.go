package lsp

import (
	"context"
	"path/filepath"
	"time"
)

// warmWait bounds how long a warm-up holds the server as in use (its
// initialize); the server then loads the workspace on its own.
const warmWait = 2 * time.Minute

// Warm starts (the process, then its initialize in the background) the servers of the files a session is
// about to change or has read (paths relative to root), so that the
// change's diagnostics do not wait for a cold server: gopls takes 10 to
// 40 s to load a workspace, longer than a change waits. It never blocks
// and starts nothing for a file no installed server serves, nor a
// server waiting out its backoff after a failure.
func (m *Manager) Warm(root string, paths ...string) {
	root = filepath.Clean(root)
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return
	}
	pathEnv := envValue(m.opts.Env, "PATH")
	seen := map[string]bool{}
	for _, p := range paths {
		rel, ok := relative(root, p)
		if !ok {
			continue
		}
		cfg, exe, _, _ := m.serverFor(rel, pathEnv, root)
		if exe == "" || seen[cfg.Name] {
			continue
		}
		seen[cfg.Name] = true
		m.warm(cfg, exe, root)
	}
}

// warm starts one server and, in the background, holds it as in use
// until its initialize is over. A server running
// already, one whose crash is still to be reported, and one waiting out
// its backoff are left to the next change, which reports them; a server
// that cannot start is in Servers' last error, and the next change tries
// it again and says so.
func (m *Manager) warm(cfg ServerConfig, exe, root string) {
	k := key{cfg.Name, root}
	m.mu.Lock()
	c, h := m.clients[k], m.health[k]
	leave := (c != nil && c.alive()) || (h != nil && (h.pending != "" || time.Now().Before(h.next)))
	m.mu.Unlock()
	if leave {
		return
	}
	c, _, _ = m.client(context.Background(), cfg, exe, root)
	if c == nil {
		return
	}
	m.use(c, 1)
	go func() {
		defer m.use(c, -1)
		ctx, cancel := context.WithTimeout(context.Background(), warmWait)
		defer cancel()
		go func() { // the server's end (Close, a crash) ends the wait
			select {
			case <-c.exited:
				cancel()
			case <-ctx.Done():
			}
		}()
		_ = c.wait(ctx) // a failed initialize is the next change's to report
	}()
}
