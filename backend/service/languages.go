package service

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/config"
	"pilot/backend/lsp"
	"pilot/backend/wire"
)

// Languages are the language servers, the user's and those running.
type Languages struct{ *core }

// The user's language servers: one lsp.Manager for the Service, started
// lazily per folder by the agent's changes, made again when the user's own
// servers change in Settings › Languages.

// diagnostics holds the Manager in use; it is the agent's Diagnostics.
type diagnostics struct {
	env  []string      // the allowlisted environment of every server
	wait time.Duration // how long a change waits for diagnostics (0: lsp's default)
	log  *slog.Logger

	mu     sync.RWMutex
	m      *lsp.Manager
	closed bool
}

// newDiagnostics starts no server: they start on the first change of a
// file they serve, and stop when idle as lsp's default says; a change
// waits wait for their diagnostics (0: lsp's default). base is Pilot's
// environment (nil: os.Environ()); log takes the servers' stderr and
// failures.
func newDiagnostics(base []string, extra []lsp.ServerConfig, wait time.Duration, log *slog.Logger) *diagnostics {
	if base == nil {
		base = os.Environ()
	}
	l := &diagnostics{env: childenv.Env(base, "", nil), wait: wait, log: log}
	l.m = l.manager(extra)
	return l
}

func (l *diagnostics) manager(extra []lsp.ServerConfig) *lsp.Manager {
	return lsp.New(lsp.Options{Env: l.env, Extra: extra, Wait: l.wait, Log: l.log})
}

// maxLanguageWait caps PILOT_LSP_WAIT.
const maxLanguageWait = 120 * time.Second

// languageWait reads PILOT_LSP_WAIT, the seconds a change waits for its
// diagnostics (a slow machine, a big workspace); unset or unusable: 0,
// lsp's default (a bad value is logged).
func languageWait(getenv func(string) string, log *slog.Logger) time.Duration {
	if getenv == nil {
		return 0
	}
	v := strings.TrimSpace(getenv("PILOT_LSP_WAIT"))
	if v == "" {
		return 0
	}
	s, err := strconv.ParseFloat(v, 64)
	d := time.Duration(s * float64(time.Second))
	if err != nil || d <= 0 || d > maxLanguageWait {
		log.Warn("PILOT_LSP_WAIT is not a number of seconds between 0 and 120; the default wait is used", "value", v)
		return 0
	}
	return d
}

func (l *diagnostics) current() *lsp.Manager {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.m
}

// AfterChange is agent.Diagnostics.AfterChange.
func (l *diagnostics) AfterChange(ctx context.Context, root string, paths []string) lsp.Outcome {
	return l.current().AfterChange(ctx, root, paths)
}

// Current is agent.Diagnostics.Current.
func (l *diagnostics) Current(ctx context.Context, root, path string) lsp.Outcome {
	return l.current().Current(ctx, root, path)
}

// Warm is agent.Diagnostics.Warm.
func (l *diagnostics) Warm(root string, paths ...string) {
	l.current().Warm(root, paths...)
}

// reset uses the user's servers from now on: the running servers stop
// and the next change starts them again under the new list.
func (l *diagnostics) reset(extra []lsp.ServerConfig) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	old := l.m
	l.m = l.manager(extra)
	l.mu.Unlock()
	go old.Close()
}

// closeRoot stops the servers of a folder (a project closed, a worktree
// discarded), named as given and with its links resolved (as the agent
// names it).
func (l *diagnostics) closeRoot(dir string) {
	if dir == "" {
		return
	}
	m := l.current()
	m.CloseRoot(dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		m.CloseRoot(real)
	}
}

// close stops every server for good.
func (l *diagnostics) close() {
	l.mu.Lock()
	l.closed = true
	m := l.m
	l.mu.Unlock()
	m.Close()
}

// List lists the language servers Pilot knows for a project
// (0: for any folder), and the user's own: found or not, running, their
// version and last error (Settings › Languages).
func (ls *Languages) List(projectID int64) ([]wire.LanguageServer, error) {
	root := ""
	if projectID != 0 {
		p, err := ls.project(context.Background(), projectID)
		if err != nil {
			return nil, err
		}
		root = p.Path
		if real, err := filepath.EvalSymlinks(root); err == nil {
			root = real
		}
	}
	return markUser(ls.langs.current().Servers(root), ls.userServers()), nil
}

// markUser marks the servers the user named in Settings.
func markUser(servers []wire.LanguageServer, user []lsp.ServerConfig) []wire.LanguageServer {
	out := make([]wire.LanguageServer, 0, len(servers))
	for _, s := range servers {
		if slices.ContainsFunc(user, func(u lsp.ServerConfig) bool { return u.Name == s.Name }) {
			s.User = true
		}
		out = append(out, s)
	}
	return out
}

// userServers are the language servers the user named in Settings.
func (ls *Languages) userServers() []lsp.ServerConfig {
	s, err := config.LoadSettings(ls.home)
	if err != nil && !isCorrupt(err) {
		ls.log.Warn("reading the user's language servers", "err", err)
	}
	return s.LanguageServers
}

// User returns the language servers the user named in
// Settings › Languages, as saved.
func (ls *Languages) User() []wire.LanguageServerConfig {
	out := []wire.LanguageServerConfig{}
	for _, s := range ls.userServers() {
		out = append(out, wire.LanguageServerConfig{Name: s.Name, Command: s.Command, Patterns: s.Patterns})
	}
	return out
}

// Set validates and saves the language servers the user
// names (each a name, a command and the files it serves); the servers
// running stop and start again under the new list at the next change.
func (ls *Languages) Set(servers []wire.LanguageServerConfig) ([]wire.LanguageServerConfig, error) {
	in := make([]lsp.ServerConfig, len(servers))
	for i, s := range servers {
		in[i] = lsp.ServerConfig{Name: s.Name, Command: s.Command, Patterns: s.Patterns}
	}
	clean, err := config.CleanLanguageServers(in)
	if err != nil {
		return nil, err
	}
	cur, err := config.LoadSettings(ls.home)
	if err != nil && !isCorrupt(err) {
		return nil, err
	}
	cur.LanguageServers = clean
	if err := config.SaveSettings(ls.home, cur); err != nil {
		return nil, err
	}
	ls.langs.reset(clean)
	return ls.User(), nil
}
