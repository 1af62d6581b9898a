package mcp

import (
	"fmt"
	"os"
	"strings"

	"pilot/backend/childenv"
)

// EnvLookup is os.LookupEnv without Pilot's key variables (every preset's
// and TS_AGENT_API_KEY): they never reach a server.
func EnvLookup(name string) (string, bool) {
	if childenv.KeyVar(name) {
		return "", false
	}
	return os.LookupEnv(name)
}

// displayLookup is lookup with key and secret names left as written, so a
// shown command never holds a secret's value.
func displayLookup(lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if childenv.KeyVar(name) || childenv.SecretName(name) {
			return "${" + name + "}", true
		}
		return lookup(name)
	}
}

// ExpandString replaces ${VAR} and ${VAR:-default} in s. An unset VAR
// without a default becomes "" (and is reported in missing).
func ExpandString(s string, lookup func(string) (string, bool), missing *[]string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+j]
		name, def, hasDef := strings.Cut(expr, ":-")
		if v, ok := lookup(name); ok && (v != "" || !hasDef) {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else if missing != nil {
			*missing = append(*missing, name)
		}
		s = s[i+j+1:]
	}
}

// varNames lists the names of the ${VAR} expressions in s.
func varNames(s string) []string {
	var names []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return names
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return names
		}
		name, _, _ := strings.Cut(s[i+2:i+j], ":-")
		names = append(names, name)
		s = s[i+j+1:]
	}
}

// Expand returns s with ${VAR} expanded in the command, args, env values,
// cwd, URL and header values.
func Expand(s Server, lookup func(string) (string, bool)) Server {
	x, _ := expandAll(s, lookup)
	return x
}

// RefusedError is a server configuration Pilot will not run: it names a
// key or (from a project) a secret, or holds a key Pilot holds. The
// server is not started; Error says why and what to do.
type RefusedError struct {
	Var   string // the variable named, "" when a value holds a key
	Field string // command, args, env, cwd, url or headers
	msg   string
}

func (e *RefusedError) Error() string { return e.msg }

// field is one configuration value with the name people know it by.
type field struct{ name, value string }

func fields(s Server) []field {
	fs := []field{{"command", s.Command}, {"cwd", s.Cwd}, {"url", s.URL}}
	for _, a := range s.Args {
		fs = append(fs, field{"args", a})
	}
	for _, k := range sortedKeys(s.Env) {
		fs = append(fs, field{"env", s.Env[k]})
	}
	for _, k := range sortedKeys(s.Headers) {
		fs = append(fs, field{"headers", s.Headers[k]})
	}
	return fs
}

// Check refuses a configuration that would hand a server a secret it has
// no authority to: ${VAR} of a provider key variable (any preset's) or of
// Pilot's own in any file; in a project's .mcp.json (scope project) also
// ${VAR} of any name that looks like a secret (childenv.SecretName), as the
// file comes with the repository; and, in any file, a value holding a key
// Pilot holds, written or expanded (base: the environment the expansion
// reads, whose key variables' values count too). The user's own
// PILOT_HOME/mcp.json may name other secrets (${GITHUB_TOKEN}): they are the
// user's to give.
func Check(s Server, scope string, lookup func(string) (string, bool), base []string) error {
	for _, f := range fields(s) {
		for _, name := range varNames(f.value) {
			switch {
			case childenv.KeyVar(name):
				return &RefusedError{Var: name, Field: f.name, msg: fmt.Sprintf(
					"not started: ${%s} in its %s names a provider key, and Pilot never hands its keys to the programs it starts. Remove it from the server's configuration; a server that needs a key of its own gets a different one, written in its \"env\"", name, f.name)}
			case scope == ScopeProject && childenv.SecretName(name):
				return &RefusedError{Var: name, Field: f.name, msg: fmt.Sprintf(
					"not started: ${%s} in its %s names a secret, and a project's %s comes with the repository, so it cannot take your secrets. If you trust this server with %s, define it in your own %s instead (pilot mcp add --scope user)", name, f.name, ProjectFile, name, UserFile)}
			}
		}
	}
	x, _ := expandAll(s, lookup)
	for _, f := range fields(x) {
		if childenv.HoldsKey(f.value, base) {
			return &RefusedError{Field: f.name, msg: fmt.Sprintf(
				"not started: its %s holds an API key Pilot uses, and Pilot never hands its keys to the programs it starts. Remove the key from the server's configuration; a server that needs a key of its own gets a different one", f.name)}
		}
	}
	return nil
}

func expandAll(s Server, lookup func(string) (string, bool)) (Server, []string) {
	var missing []string
	e := func(v string) string { return ExpandString(v, lookup, &missing) }
	x := s
	x.Command, x.Cwd, x.URL = e(s.Command), e(s.Cwd), e(s.URL)
	x.Args = make([]string, len(s.Args))
	for i, a := range s.Args {
		x.Args[i] = e(a)
	}
	x.Env = make(map[string]string, len(s.Env))
	for k, v := range s.Env {
		x.Env[k] = e(v)
	}
	x.Headers = make(map[string]string, len(s.Headers))
	for k, v := range s.Headers {
		x.Headers[k] = e(v)
	}
	return x, missing
}
