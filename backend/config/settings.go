// Package config holds Pilot's saved settings and API keys under PILOT_HOME
// and resolves the configuration in force: the environment first (see
// README, "Configuration"), then the saved settings, then defaults, remembering where
// each value came from.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"pilot/backend/lsp"
	"pilot/backend/option"
)

// File names under PILOT_HOME.
const (
	SettingsFile = "settings.json"
	KeysFile     = "keys.json"
)

// Approval modes (the --approve flag of `pilot -p`, see `pilot help`).
// ApprovePlan is only a default for the window's new sessions (the mode
// control offers it too); `pilot -p` takes its mode from --approve.
const (
	ApproveAsk   = "ask"
	ApproveEdits = "edits"
	ApproveAll   = "all"
	ApproveNone  = "none"
	ApprovePlan  = "plan"
)

// ErrCorrupt is matched by the error of a settings or keys file that cannot
// be read as JSON.
var ErrCorrupt = errors.New("the file is not valid JSON")

// Settings is what the Settings screen saves. Zero fields mean "not set".
// API keys are not here: they live in keys.json (see SaveKey).
type Settings struct {
	Provider       string            `json:"provider,omitempty"`       // "anthropic" or "openai"
	Model          string            `json:"model,omitempty"`          // model of Provider
	BaseURLs       map[string]string `json:"baseUrls,omitempty"`       // provider → base URL
	MaxTokens      int               `json:"maxTokens,omitempty"`      // answer limit per call
	ApprovalMode   string            `json:"approvalMode,omitempty"`   // ask, edits, all, none, plan
	ThinkingBudget int               `json:"thinkingBudget,omitempty"` // extended thinking per call (Anthropic), 0: off
	BudgetTokens   int64             `json:"budgetTokens,omitempty"`   // per session, 0: none
	BudgetUSD      float64           `json:"budgetUsd,omitempty"`      // per session, 0: none
	// CheckpointRetentionMB caps the checkpoint content kept per project
	// (MiB); 0: DefaultRetentionMB.
	CheckpointRetentionMB int `json:"checkpointRetentionMb,omitempty"`
	// MCPTimeoutSeconds caps each MCP tool call; 0: 60 s.
	MCPTimeoutSeconds int `json:"mcpTimeoutSeconds,omitempty"`
	// HelperConcurrency is how many helpers (task calls) of a turn run at
	// once; 0: HelpersBound.Default.
	HelperConcurrency int `json:"helperConcurrency,omitempty"`
	// JobsPerSession is how many background jobs a session may run at
	// once; 0: JobsBound.Default.
	JobsPerSession int `json:"jobsPerSession,omitempty"`
	// NotificationsOff turns the desktop notifications off (they are on
	// by default).
	NotificationsOff bool `json:"notificationsOff,omitempty"`
	// SandboxHidden are paths the sandbox hides from commands beside the
	// secrets it always hides: absolute, or "~/" for the home folder.
	SandboxHidden []string `json:"sandboxHidden,omitempty"`
	// SandboxSockets are the host's unix sockets commands may connect to
	// (a socket, or a folder of them): absolute, or "~/" for the home
	// folder. Every other socket under the home is covered.
	SandboxSockets []string `json:"sandboxSockets,omitempty"`
	// LanguageServers are the language servers the user names (Settings ›
	// Languages), tried before the built-in ones for the files they
	// serve; CleanLanguageServers checks them.
	LanguageServers []lsp.ServerConfig `json:"languageServers,omitempty"`
	// Models are what the user states of models, by the id the server
	// knows them by: they win over the server's facts and the table
	// (CheckModels checks them; docs/MODELS.md).
	Models map[string]ModelOverride `json:"models,omitempty"`
	// WebSearch is the search service of the web_search tool (Settings ›
	// Web); its API key is in keys.json under the backend's name.
	WebSearch WebSearch `json:"webSearch,omitzero"`
}

// WebSearch is what settings.json says of web search.
type WebSearch struct {
	// Backend is "brave", "tavily" or "searxng"; "": no search (the tool
	// is not offered).
	Backend string `json:"backend,omitempty"`
	// URL is the service's address: SearXNG's instance (required), or
	// another endpoint for Brave or Tavily (a proxy); "": the service's.
	URL string `json:"url,omitempty"`
	// PerSession caps the searches of one session; 0: SearchesBound.Default.
	PerSession int `json:"perSession,omitempty"`
	// Provider lets the model's provider search the web itself, as it
	// answers (Anthropic's API, OpenRouter): its own search is offered
	// without a web_search allow rule for its host (a deny rule, plan
	// mode or mode none still keep it off).
	Provider bool `json:"provider,omitempty"`
}

// Bound is a number setting's default (for 0, unset) and its largest
// value.
type Bound struct{ Default, Max int }

// Of is v in force: the default for 0, at most Max.
func (b Bound) Of(v int) int { return min(option.Or(v, b.Default), b.Max) }

// Check refuses v outside 0 (the default) to Max with a sentence: what
// (and unit, after the number) names the setting.
func (b Bound) Check(what string, v int, unit string) error {
	if v < 0 || v > b.Max {
		return fmt.Errorf("%s must be 1 to %d%s (%d was given)", what, b.Max, unit, v)
	}
	return nil
}

// The bounds of the number settings.
var (
	SearchesBound   = Bound{Default: 20, Max: 500}  // a session's web searches
	HelpersBound    = Bound{Default: 3, Max: 8}     // helpers running at once
	JobsBound       = Bound{Default: 3, Max: 20}    // a session's background jobs at once
	MCPTimeoutBound = Bound{Default: 60, Max: 3600} // an MCP call's timeout, in seconds
)

// Searches is the cap on a session's searches in force.
func (w WebSearch) Searches() int { return SearchesBound.Of(w.PerSession) }

// Helpers is the helper concurrency in force.
func (s Settings) Helpers() int { return HelpersBound.Of(s.HelperConcurrency) }

// Jobs is the number of background jobs per session in force.
func (s Settings) Jobs() int { return JobsBound.Of(s.JobsPerSession) }

// MCPTimeout is the MCP call timeout in force, in seconds.
func (s Settings) MCPTimeout() int { return MCPTimeoutBound.Of(s.MCPTimeoutSeconds) }

// Checkpoint retention per project, in MiB.
const (
	DefaultRetentionMB = 2048
	MinRetentionMB     = 10
)

// RetentionMB is the checkpoint retention in force.
func (s Settings) RetentionMB() int { return option.Or(s.CheckpointRetentionMB, DefaultRetentionMB) }

// CorruptFileError says which file could not be read and what to do.
type CorruptFileError struct {
	Path string
	Err  error
}

func (e *CorruptFileError) Error() string {
	return fmt.Sprintf("%s is not valid JSON (%v); Pilot uses defaults for now. Fix the file by hand, or save in Settings: the broken file is then kept as %s.bad-<time>", e.Path, e.Err, filepath.Base(e.Path))
}

// Is matches ErrCorrupt.
func (e *CorruptFileError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns the JSON error.
func (e *CorruptFileError) Unwrap() error { return e.Err }

// LoadSettings reads <home>/settings.json. A missing file gives zero
// Settings and no error; a corrupt one gives zero Settings and a
// *CorruptFileError, and the file is left untouched.
func LoadSettings(home string) (Settings, error) {
	var s Settings
	err := readJSON(filepath.Join(home, SettingsFile), &s)
	return s, err
}

// SaveSettings writes <home>/settings.json atomically. The keys Settings
// does not know (the hooks and permissions a user writes there, read by
// settingsjson, and any other) are kept as they were; those it knows are
// replaced, a cleared one removed. A corrupt file that is already there is
// moved aside to settings.json.bad-<time> first, so the user's text is
// never lost.
func SaveSettings(home string, s Settings) error {
	path := filepath.Join(home, SettingsFile)
	doc, err := keepUnknown(path, s)
	if err != nil {
		return err
	}
	return writeJSON(path, doc, 0o644)
}

// readJSON decodes path into v; a missing or empty file leaves v alone.
func readJSON(path string, v any) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return &CorruptFileError{Path: path, Err: err}
	}
	return nil
}

// writeJSON replaces path with v through a temporary file and a rename,
// with the given mode. A present file that is not valid JSON is renamed to
// <path>.bad-<time> first.
func writeJSON(path string, v any, mode os.FileMode) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	raw = append(raw, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	if old, err := os.ReadFile(path); err == nil && len(bytes.TrimSpace(old)) > 0 && !json.Valid(old) {
		bad := path + ".bad-" + time.Now().Format("20060102-150405")
		if err := os.Rename(path, bad); err != nil {
			return fmt.Errorf("%s is corrupt and could not be moved aside: %w", path, err)
		}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot replace %s: %w", path, err)
	}
	return nil
}
