// Package lsp speaks the Language Server Protocol to the user's language
// servers (gopls, typescript-language-server, pyright, rust-analyzer,
// clangd and any the user names) to learn what they say about the files a
// change touched.
//
// SKELETON: the types and the Manager's methods are the API the agent and
// the service use; the implementation lands with the lsp work of issue 27.
package lsp

import (
	"context"
	"time"

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
}

// Options configure a Manager.
type Options struct {
	// Env is the environment of every server (childenv's allowlist).
	Env []string
	// Extra are the servers the user named in settings, tried before the
	// built-in ones for the files they serve.
	Extra []ServerConfig
	// Wait bounds how long AfterChange waits for a server's diagnostics.
	Wait time.Duration
	// Idle stops a server unused for this long.
	Idle time.Duration
}

// Outcome is what the servers said about some files.
type Outcome struct {
	// Diagnostics in the changed files and in the files that import them
	// (as far as the servers report them), sorted by path, line, column.
	Diagnostics []wire.Diagnostic
	// Checked are the files a server looked at (relative paths).
	Checked []string
	// Missing names, once per Manager and language, a server that is not
	// installed: "no Go language server found (install gopls)".
	Missing []string
	// TimedOut names the servers that did not answer within the wait.
	TimedOut []string
	// Failed names servers that crashed or could not start, with why.
	Failed []string
	// ServerTime is the servers' own time, from the sync to the last
	// diagnostics received (for the benchmark's split).
	ServerTime time.Duration
}

// Manager runs language servers, lazily, one per server and folder.
type Manager struct{ opts Options }

// New makes a Manager; no server starts until a file asks for one.
func New(opts Options) *Manager { return &Manager{opts: opts} }

// AfterChange syncs the changed files (paths relative to root) with
// their servers and waits, up to the bound, for their diagnostics.
func (m *Manager) AfterChange(ctx context.Context, root string, paths []string) Outcome {
	return Outcome{}
}

// Current returns what the servers say now about one file (path
// relative to root) or, for "", about every file they reported on.
func (m *Manager) Current(ctx context.Context, root, path string) Outcome {
	return Outcome{}
}

// Servers lists every server Pilot knows and its state for root ("" for
// any folder).
func (m *Manager) Servers(root string) []wire.LanguageServer { return nil }

// CloseRoot stops the servers of one folder (a project closed, a
// worktree discarded).
func (m *Manager) CloseRoot(root string) {}

// Close stops every server.
func (m *Manager) Close() {}
