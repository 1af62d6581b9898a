package mcp

import (
	"os"
	"strings"
)

// hidden are Pilot's own provider keys: they never reach a server, not
// even through ${VAR} in its configuration.
var hidden = map[string]bool{"ANTHROPIC_API_KEY": true, "OPENAI_API_KEY": true, "TS_AGENT_API_KEY": true}

// EnvLookup is os.LookupEnv without Pilot's provider keys.
func EnvLookup(name string) (string, bool) {
	if hidden[strings.ToUpper(name)] {
		return "", false
	}
	return os.LookupEnv(name)
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

// Expand returns s with ${VAR} expanded in the command, args, env values,
// cwd, URL and header values.
func Expand(s Server, lookup func(string) (string, bool)) Server {
	x, _ := expand(s, lookup)
	return x
}

func expand(s Server, lookup func(string) (string, bool)) (Server, []string) {
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

// childEnv is the environment of a stdio server: Pilot's own, without its
// provider settings and keys (ANTHROPIC_*, OPENAI_*, TS_AGENT_API_KEY, and
// any variable holding a saved key's value), plus the server's env.
func childEnv(base []string, own map[string]string, secrets []string) []string {
	out := make([]string, 0, len(base)+len(own))
	for _, kv := range base {
		name, val, _ := strings.Cut(kv, "=")
		n := strings.ToUpper(name)
		if hidden[n] || strings.HasPrefix(n, "ANTHROPIC_") || strings.HasPrefix(n, "OPENAI_") || strings.HasPrefix(n, "PILOT_") || isSecret(val, secrets) {
			continue
		}
		if _, set := own[name]; set {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range sortedKeys(own) {
		if hidden[strings.ToUpper(k)] || isSecret(own[k], secrets) {
			continue
		}
		out = append(out, k+"="+own[k])
	}
	return out
}

func isSecret(v string, secrets []string) bool {
	for _, s := range secrets {
		if s != "" && strings.Contains(v, s) {
			return true
		}
	}
	return false
}
