// Package settingsjson reads the settings.json files that carry a user's
// setup from Claude Code and from Pilot itself: hooks and permission rules.
// It only reads and parses them; what the entries mean (hooks run, rules
// judged) and whether a project's file is trusted is decided by the
// packages that use them.
//
// The files, in the order they are read (a later one adds to an earlier
// one, as in Claude Code, where hooks and rules of every file apply):
//
//	~/.claude/settings.json          ScopeUser         the user's own
//	PILOT_HOME/settings.json         ScopePilotUser    the user's own (beside Pilot's settings)
//	.claude/settings.json            ScopeProject      the project's: carries no authority until trusted
//	.claude/settings.local.json      ScopeLocal        the project's: carries no authority until trusted
//	.pilot/settings.json             ScopePilotProject the project's: carries no authority until trusted
//
// A missing file is left out. A file that cannot be read or parsed is
// returned with Err set (a sentence naming the file and what to fix), and
// nothing from it is used. The project's files are read through the
// project's root (backend/sandbox): a `.claude` or a settings file that is
// a link out of the project (to another project's trusted `.claude`, say),
// a FIFO, a device or a file over 1 MiB is not read, and Err says so. The
// user's own files are read as they are, regular and bounded too. A
// file's Scripts are the project files its hooks' commands name
// (scripts.go), read the same way: its trust covers them.
package settingsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"pilot/backend/projectroot"
)

// Scope says where a file comes from.
type Scope string

// The scopes, one per file.
const (
	ScopeUser         Scope = "user"          // ~/.claude/settings.json
	ScopePilotUser    Scope = "pilot-user"    // PILOT_HOME/settings.json
	ScopeProject      Scope = "project"       // .claude/settings.json
	ScopeLocal        Scope = "local"         // .claude/settings.local.json
	ScopePilotProject Scope = "pilot-project" // .pilot/settings.json
)

// FromProject reports whether the scope is a file of the project folder
// (which a cloned repository can carry): its hooks and allow rules carry no
// authority until the user trusts them.
func (s Scope) FromProject() bool {
	return s == ScopeProject || s == ScopeLocal || s == ScopePilotProject
}

// settingsFile bounds a settings file; a bigger one is an error.
var settingsFile = projectroot.Kind{Name: "a settings file", Limit: 1 << 20, Fix: "shorten it"}

// File is one settings file as read.
type File struct {
	Path  string // absolute
	Scope Scope
	// Raw is the file's content as read (hash it for trust: what was
	// shown is what runs).
	Raw         []byte
	Hooks       Hooks       // nil: none
	Permissions Permissions // zero: none
	Err         error       // the file could not be read or parsed: nothing from it is used
	// Scripts are the project files its hooks name, as read in the
	// folder the hooks run in (sorted by Rel).
	Scripts []Script
}

// Hooks are the "hooks" object: event name (PreToolUse, PostToolUse, ...)
// to its matcher groups, as Claude Code writes them.
type Hooks map[string][]MatcherGroup

// MatcherGroup is one entry of an event's list: a matcher (a regular
// expression on tool names; "" or "*" matches every tool; events without
// tools ignore it) and the hooks it runs.
type MatcherGroup struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []Hook `json:"hooks"`
}

// Hook is one hook of a group.
type Hook struct {
	Type    string  `json:"type"`              // "command" (the one type Pilot runs; others are reported as ignored)
	Command string  `json:"command,omitempty"` // run with sh -c
	Timeout float64 `json:"timeout,omitempty"` // seconds; 0: the default (60 s in Claude Code)
}

// Permissions is the "permissions" object.
type Permissions struct {
	Allow                 []string `json:"allow,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	DefaultMode           string   `json:"defaultMode,omitempty"`
}

// document is the part of a settings file this package reads; every other
// key is left alone.
type document struct {
	Hooks       Hooks       `json:"hooks"`
	Permissions Permissions `json:"permissions"`
}

// Paths lists the settings files for a user home (the OS home folder, ""
// to leave the user's Claude file out), PILOT_HOME and a project folder (""
// for none), in reading order, with their scopes.
func Paths(home, pilotHome, project string) []File {
	var out []File
	add := func(dir string, scope Scope, parts ...string) {
		if dir == "" {
			return
		}
		out = append(out, File{Path: filepath.Join(append([]string{dir}, parts...)...), Scope: scope})
	}
	add(home, ScopeUser, ".claude", "settings.json")
	add(pilotHome, ScopePilotUser, "settings.json")
	add(project, ScopeProject, ".claude", "settings.json")
	add(project, ScopeLocal, ".claude", "settings.local.json")
	add(project, ScopePilotProject, ".pilot", "settings.json")
	return out
}

// Load reads every settings file of Paths that exists, with the scripts
// its hooks name in the project folder.
func Load(home, pilotHome, project string) []File {
	return LoadRun(home, pilotHome, project, project)
}

// LoadRun is Load for hooks that run in the folder run (a worktree of
// the project): the files are the project's, the scripts run's.
func LoadRun(home, pilotHome, project, run string) []File {
	var root, runRoot *projectroot.Root
	if project != "" {
		if r, err := projectroot.New(project); err == nil {
			root = r
			defer r.Close()
		}
	}
	if run != "" {
		if r, err := projectroot.New(run); err == nil {
			runRoot = r
			defer r.Close()
		}
	}
	var out []File
	for _, f := range Paths(home, pilotHome, project) {
		var raw []byte
		var err error
		if f.Scope.FromProject() {
			if root == nil {
				continue
			}
			rel, _ := filepath.Rel(project, f.Path)
			raw, err = root.ReadOwn(filepath.ToSlash(rel), settingsFile)
		} else {
			raw, err = projectroot.ReadUserFile(f.Path, settingsFile)
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		f.Raw = raw
		if err == nil {
			err = parse(raw, &f)
		}
		if err != nil {
			f.Err = err
		}
		if f.Err == nil && len(f.Hooks) > 0 && runRoot != nil {
			f.Scripts = readScripts(runRoot, f.Hooks)
		}
		out = append(out, f)
	}
	return out
}

// parse fills f's hooks and permissions from raw.
func parse(raw []byte, f *File) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil // an empty file is an empty setup
	}
	var d document
	if err := json.Unmarshal(raw, &d); err != nil {
		return fmt.Errorf("%s is not valid settings JSON (%v): fix it, or move it aside", f.Path, err)
	}
	f.Hooks = d.Hooks
	f.Permissions = d.Permissions
	return nil
}
