// Package mcp connects Pilot to Model Context Protocol servers through the
// official Go SDK (github.com/modelcontextprotocol/go-sdk): their
// configuration (the project's .mcp.json in Claude Code's format and the
// user's PILOT_HOME/mcp.json), the trust a project's file needs before any
// of its commands run, and a supervisor per server that starts it, lists its
// tools (following notifications/tools/list_changed), calls them with a
// timeout, and restarts it with backoff when it fails.
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"pilot/backend/childenv"
	"pilot/backend/projectroot"
	"pilot/backend/trustfile"
	"pilot/backend/wire"
)

// File names.
const (
	ProjectFile = ".mcp.json" // in the project folder
	UserFile    = "mcp.json"  // under PILOT_HOME
)

// Scopes of a server.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// Transports.
const (
	TypeStdio = "stdio"
	TypeHTTP  = "http"
	TypeSSE   = "sse"
)

// ErrInvalid is matched by the errors of a configuration that cannot be used.
var ErrInvalid = errors.New("mcp: invalid configuration")

// Server is one entry of "mcpServers", as people write it: the wire's
// MCPServerSettings (one field list for both), with its methods.
type Server wire.MCPServerSettings

// Transport is the server's transport: stdio, http or sse.
func (s Server) Transport() string {
	switch t := strings.ToLower(s.Type); {
	case t == TypeSSE:
		return TypeSSE
	case t == TypeHTTP || t == "streamable-http" || (t == "" && s.Command == "" && s.URL != ""):
		return TypeHTTP
	}
	return TypeStdio
}

// Validate says what is wrong with s, if anything.
func (s Server) Validate() error {
	switch s.Transport() {
	case TypeStdio:
		if strings.TrimSpace(s.Command) == "" {
			return fmt.Errorf("%w: a stdio server needs a \"command\"", ErrInvalid)
		}
	default:
		if strings.TrimSpace(s.URL) == "" {
			return fmt.Errorf("%w: an %s server needs a \"url\"", ErrInvalid, s.Transport())
		}
	}
	return nil
}

// File is the content of an .mcp.json or mcp.json.
type File struct {
	Servers map[string]Server `json:"mcpServers"`
}

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// ValidName checks a server name: letters, digits, '_' and '-', up to 40,
// and no "__" (it separates the parts of mcp__<server>__<tool>).
func ValidName(name string) error {
	if !validName.MatchString(name) || strings.Contains(name, "__") {
		return fmt.Errorf("%w: server name %q: use letters, digits, '-' and single '_' (at most 40)", ErrInvalid, name)
	}
	return nil
}

// configFile bounds a configuration file: a bigger one is not read.
var configFile = projectroot.Kind{Name: "an MCP configuration file", Limit: 1 << 20, Fix: "shorten it"}

// ReadFile reads the user's configuration file at path (PILOT_HOME's
// mcp.json): a regular file, never waiting, at most 1 MiB. A missing file
// is an empty one. It also returns the file's bytes (nil when missing)
// for the trust hash.
func ReadFile(path string) (File, []byte, error) {
	b, err := projectroot.ReadUserFile(path, configFile)
	return decode(path, b, err)
}

// ReadProject reads the project's .mcp.json through the project's root
// (backend/sandbox): a link out of the project, anything but a regular
// file and a file over 1 MiB are refused at once with a sentence naming
// the file and what to do (a *projectroot.NotRead). A missing file is an
// empty one.
func ReadProject(project string) (File, []byte, error) {
	root, err := projectroot.New(project)
	if err != nil {
		return File{}, nil, err
	}
	defer root.Close()
	b, err := root.ReadOwn(ProjectFile, configFile)
	return decode(ProjectPath(project), b, err)
}

// ReadScope reads the file of a scope (ScopeUser: PILOT_HOME's; else the
// project's).
func ReadScope(home, project, scope string) (File, []byte, error) {
	if scope == ScopeProject {
		return ReadProject(project)
	}
	return ReadFile(UserPath(home))
}

// decode parses a configuration file as read (err: the read's error).
func decode(path string, b []byte, err error) (File, []byte, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return File{Servers: map[string]Server{}}, nil, nil
	}
	if err != nil {
		return File{}, nil, err
	}
	var f File
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &f); err != nil {
			return File{}, b, fmt.Errorf("%w: %s is not valid JSON (%v); fix or remove it", ErrInvalid, path, err)
		}
	}
	if f.Servers == nil {
		f.Servers = map[string]Server{}
	}
	return f, b, nil
}

// WriteScope saves f as the file of a scope, keeping any other top-level
// keys the file had: the user's replaced atomically at its path, the
// project's through the project's root (no link out of it is followed).
func WriteScope(home, project, scope string, f File) error {
	_, old, err := ReadScope(home, project, scope)
	if err != nil {
		return err
	}
	out, err := merge(ScopePath(home, project, scope), old, f)
	if err != nil {
		return err
	}
	if scope == ScopeProject {
		root, err := projectroot.New(project)
		if err != nil {
			return err
		}
		defer root.Close()
		return root.WriteAtomic(ProjectFile, out, 0o644)
	}
	path := UserPath(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// merge is the file old (as read, nil when missing) with f's servers.
func merge(path string, old []byte, f File) ([]byte, error) {
	top := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(old)) > 0 {
		if err := json.Unmarshal(old, &top); err != nil {
			return nil, fmt.Errorf("%w: %s is not valid JSON (%v); fix or remove it", ErrInvalid, path, err)
		}
	}
	servers, err := json.Marshal(f.Servers)
	if err != nil {
		return nil, err
	}
	top["mcpServers"] = servers
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// Paths of the two files.
func UserPath(home string) string       { return filepath.Join(home, UserFile) }
func ProjectPath(project string) string { return filepath.Join(project, ProjectFile) }

// Entry is a configured server with where it came from.
type Entry struct {
	Name   string
	Scope  string
	Server Server
}

// Set is the servers of a project: the user's, then the project's (a
// project server replaces a user server of the same name).
type Set struct {
	Entries     []Entry
	ProjectHash string // sha256 of the project's .mcp.json, "" when none
	ProjectRaw  []byte
}

// Load reads the user's and the project's files. project may be "".
func Load(home, project string) (Set, error) {
	var set Set
	byName := map[string]Entry{}
	u, _, err := ReadFile(UserPath(home))
	if err != nil {
		return set, err
	}
	for n, s := range u.Servers {
		byName[n] = Entry{Name: n, Scope: ScopeUser, Server: s}
	}
	if project != "" {
		p, raw, err := ReadProject(project)
		if err != nil {
			return set, err
		}
		if raw != nil {
			set.ProjectHash, set.ProjectRaw = trustfile.Hash(raw), raw
		}
		for n, s := range p.Servers {
			byName[n] = Entry{Name: n, Scope: ScopeProject, Server: s}
		}
	}
	for _, e := range byName {
		set.Entries = append(set.Entries, e)
	}
	sort.Slice(set.Entries, func(i, j int) bool { return set.Entries[i].Name < set.Entries[j].Name })
	return set, nil
}

// Display is the one line that says what a server runs or where it
// connects: the exact command the trust prompt shows, with ${VAR} in the
// command, args, cwd and URL expanded, except key and secret names, which
// stay as written. Environment values and headers are shown as the file
// writes them (they often name secrets: ${GITHUB_TOKEN}). A key Pilot
// holds is never shown.
func Display(s Server, lookup func(string) (string, bool)) string {
	return childenv.Redact(display(s, lookup))
}

func display(s Server, lookup func(string) (string, bool)) string {
	x := Expand(s, displayLookup(lookup))
	if x.Transport() != TypeStdio {
		line := x.Transport() + " " + x.URL
		keys := sortedKeys(s.Headers)
		for _, k := range keys {
			line += " -H " + shellQuote(k+": "+s.Headers[k])
		}
		return line
	}
	parts := []string{}
	for _, k := range sortedKeys(s.Env) {
		parts = append(parts, k+"="+shellQuote(s.Env[k]))
	}
	parts = append(parts, shellQuote(x.Command))
	for _, a := range x.Args {
		parts = append(parts, shellQuote(a))
	}
	line := strings.Join(parts, " ")
	if x.Cwd != "" {
		line = "(cd " + shellQuote(x.Cwd) + " && " + line + ")"
	}
	return line
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == '@' || r == ',' || r == '+' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
