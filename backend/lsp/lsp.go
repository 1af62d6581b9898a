// Package lsp speaks the Language Server Protocol to the user's language
// servers (gopls, typescript-language-server, pyright, rust-analyzer,
// clangd and any the user names) to learn what they say about the files a
// change touched.
//
// A Manager starts a server lazily, one process per server and folder,
// the first time a file it serves changes, and stops it when idle, when
// its folder closes, or on Close. AfterChange syncs the changed files
// (their text on disk) and waits, within a bound, for the diagnostics the
// server publishes for them and for the files that import them. Servers
// run outside the model's sandbox, as the user's programs, with the
// environment the Manager is given.
package lsp

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pilot/backend/hostexec"
	"pilot/backend/option"
	"pilot/backend/wire"
)

// ServerConfig is a language server the user named in settings (or one
// Pilot knows): its command and the files it serves.
type ServerConfig struct {
	Name      string   `json:"name"`
	Command   []string `json:"command"`   // argv; Command[0] found on PATH
	Patterns  []string `json:"patterns"`  // doublestar globs of the files it serves, e.g. "**/*.go"
	Languages []string `json:"languages"` // e.g. ["Go"]; for sentences
	// LanguageIDs maps a file extension (".ts") to the LSP languageId
	// ("typescript") sent in didOpen.
	LanguageIDs map[string]string `json:"languageIds,omitempty"`
	Install     string            `json:"install,omitempty"` // how to get it, for the "not found" sentence
	// InitOptions are the initializationOptions sent with initialize.
	InitOptions map[string]any `json:"initializationOptions,omitempty"`
	// VersionArgs print the server's version ("--version" when empty).
	VersionArgs []string `json:"versionArgs,omitempty"`
}

// Options configure a Manager.
type Options struct {
	// Env is the environment of every server (childenv's allowlist); its
	// PATH is where servers are looked for. Nil: Pilot's own.
	Env []string
	// Extra are the servers the user named in settings, tried before the
	// built-in ones for the files they serve.
	Extra []ServerConfig
	// Wait bounds how long AfterChange waits for a server's diagnostics
	// (DefaultWait when zero).
	Wait time.Duration
	// Idle stops a server unused for this long (DefaultIdle when zero).
	Idle time.Duration
	// Log takes the servers' stderr and their failures (nothing when nil).
	Log *slog.Logger
}

// DefaultWait is how long a change waits for its diagnostics: warm gopls
// and typescript-language-server answer on this repository in well under
// a second (docs/BENCHMARKS.md, lsp); a server still loading a big
// workspace answers the next change.
const DefaultWait = 3 * time.Second

// DefaultIdle stops a server nobody asked anything for ten minutes.
const DefaultIdle = 10 * time.Minute

// stopGrace is how long a stopping server gets to shut down and exit,
// then again after SIGTERM, before SIGKILL.
const stopGrace = 500 * time.Millisecond

// Outcome is what the servers said about some files.
type Outcome struct {
	// Diagnostics in the changed files and in the files that import them
	// (as far as the servers report them), sorted by path, line, column.
	// Errors and warnings only: servers' hints are not for the model.
	Diagnostics []wire.Diagnostic
	// Checked are the files a server looked at (relative paths).
	Checked []string
	// Missing names, once per language, a server that is not installed
	// for a changed file: "no Go language server found (install gopls)"
	// (every time: the agent tells it once per session).
	Missing []string
	// Answered names the servers that answered about the changed files
	// (AfterChange), for the result's header.
	Answered []string
	// TimedOut names the servers that did not answer within the wait.
	TimedOut []string
	// Failed names servers that crashed or could not start, with why:
	// they did not answer about these files.
	Failed []string
	// Restarted names servers that had crashed since the last outcome and
	// were started again for this one, with why: what they said here is
	// their real answer.
	Restarted []string
	// ServerTime is the servers' own time, from the sync to the last
	// diagnostics received (for the benchmark's split).
	ServerTime time.Duration
}

// key is one server in one folder.
type key struct{ name, root string }

// Manager runs language servers, lazily, one per server and folder.
type Manager struct {
	opts    Options
	log     *slog.Logger
	configs []ServerConfig // Extra, then the built-in ones

	mu      sync.Mutex
	clients map[key]*client
	health  map[key]*health
	lastErr map[string]string // server name → its last failure
	closed  bool

	versions versionCache
}

// New makes a Manager; no server starts until a file asks for one.
func New(opts Options) *Manager {
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	opts.Wait = option.Or(opts.Wait, DefaultWait)
	opts.Idle = option.Or(opts.Idle, DefaultIdle)
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A server with no command (a hand-edited settings file) cannot run:
	// it is left out, not indexed.
	opts.Extra = slices.DeleteFunc(slices.Clone(opts.Extra), func(c ServerConfig) bool {
		if len(c.Command) == 0 || c.Command[0] == "" {
			log.Warn("a language server in the settings has no command; it is left out", "server", c.Name)
			return true
		}
		return false
	})
	return &Manager{
		opts: opts, log: log, configs: append(slices.Clone(opts.Extra), builtins...),
		clients: map[key]*client{}, health: map[key]*health{},
		lastErr: map[string]string{},
	}
}

// AfterChange syncs the changed files (paths relative to root) with
// their servers and waits, up to the bound, for their diagnostics.
func (m *Manager) AfterChange(ctx context.Context, root string, paths []string) Outcome {
	return m.check(ctx, root, paths, true)
}

// Current returns what the servers say now about one file (path
// relative to root), about the files under a folder, or, for "", about
// every file they reported on. A file no server has open yet is opened
// and waited for as after a change; for a folder or "" only what the
// running servers said is given.
func (m *Manager) Current(ctx context.Context, root, path string) Outcome {
	root = filepath.Clean(root)
	dir := ""
	if path != "" && filepath.Clean(path) != "." && filepath.Clean(path) != root {
		rel, ok := relative(root, path)
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); !ok || err != nil || !fi.IsDir() {
			return m.check(ctx, root, []string{path}, false)
		}
		dir = filepath.Join(root, filepath.FromSlash(rel)) + string(filepath.Separator)
	}
	var out Outcome
	res := map[string][]lspDiagnostic{}
	m.mu.Lock()
	for k, c := range m.clients {
		if k.root != root || !c.alive() {
			continue
		}
		for abs, items := range c.all() {
			if strings.HasPrefix(abs, dir) {
				res[abs] = append(res[abs], items...)
			}
		}
	}
	m.mu.Unlock()
	out.Diagnostics, out.Checked = convert(root, res)
	return out
}

// Servers lists every server Pilot knows and its state for root ("" for
// any folder).
func (m *Manager) Servers(root string) []wire.LanguageServer {
	if root != "" {
		root = filepath.Clean(root)
	}
	pathEnv := envValue(m.opts.Env, "PATH")
	out := make([]wire.LanguageServer, len(m.configs))
	var wg sync.WaitGroup
	for i, cfg := range m.configs {
		ls := wire.LanguageServer{
			Name: cfg.Name, Languages: slices.Clone(cfg.Languages), Command: slices.Clone(cfg.Command),
			State: wire.ServerMissing, Install: cfg.Install, User: i < len(m.opts.Extra),
		}
		p, err := hostexec.Find(cfg.Command[0], pathEnv, root)
		var skip *hostexec.SkippedError
		switch {
		case err == nil:
			ls.Path, ls.State = p, wire.ServerFound
		case errors.As(err, &skip):
			ls.LastError = err.Error() // missing, and why what was found is not run
		}
		m.mu.Lock()
		if e := m.lastErr[cfg.Name]; e != "" {
			ls.LastError, ls.State = e, wire.ServerFailed
		}
		for k, c := range m.clients {
			if k.name == cfg.Name && (root == "" || k.root == root) && c.alive() {
				ls.State = wire.ServerRunning
				select {
				case <-c.ready: // version is set before ready closes
					ls.Version = c.version
				default:
				}
			}
		}
		m.mu.Unlock()
		out[i] = ls
		if ls.Path != "" && ls.Version == "" {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i].Version = m.versions.get(ls.Path, cfg.VersionArgs, m.opts.Env, root)
			}()
		}
	}
	wg.Wait()
	return out
}

// CloseRoot stops the servers of one folder (a project closed, a
// worktree discarded).
func (m *Manager) CloseRoot(root string) {
	root = filepath.Clean(root)
	m.stopWhere(func(k key) bool { return k.root == root })
}

// Close stops every server; the Manager answers nothing after it.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.stopWhere(func(key) bool { return true })
}

// stopWhere stops, in parallel, the servers whose key matches.
func (m *Manager) stopWhere(match func(key) bool) {
	m.mu.Lock()
	var stop []*client
	for k, c := range m.clients {
		if match(k) {
			stop = append(stop, c)
			delete(m.clients, k)
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range stop {
		wg.Go(func() { c.stop(stopGrace) })
	}
	wg.Wait()
}
