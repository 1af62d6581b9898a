package mcp

import (
	"strings"
	"testing"
)

// Whatever a configuration value holds, a server that Check lets start
// never gets a provider key, and a project's server never gets a secret
// through ${VAR}.
func FuzzCheckNeverPassesAKey(f *testing.F) {
	const groq, gh = "fuzz-groq-key-0123456789", "fuzz-gh-token-0123456789"
	base := []string{"GROQ_API_KEY=" + groq, "GITHUB_TOKEN=" + gh, "HOME=/home/ada"}
	lookup := func(name string) (string, bool) {
		for _, kv := range base {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				return v, true
			}
		}
		return "", false
	}
	for _, s := range []string{"${GROQ_API_KEY}", "${GROQ_API_KEY:-x}", "${HOME}${GROQ_API_KEY", "$${GROQ_API_KEY}}",
		"${${GROQ_API_KEY}}", "${GITHUB_TOKEN}", "${GITHUB_TOKEN:-}", "a${HOME}b", "x" + groq, "${:-${GROQ_API_KEY}}"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, value string, project bool) {
		scope := ScopeUser
		if project {
			scope = ScopeProject
		}
		s := Server{Command: "srv", Args: []string{value}, Env: map[string]string{"E": value}, Headers: map[string]string{"H": value}}
		if Check(s, scope, lookup, base) != nil {
			return
		}
		x := Expand(s, lookup)
		for _, got := range []string{x.Args[0], x.Env["E"], x.Headers["H"]} {
			if strings.Contains(got, groq) {
				t.Fatalf("%q passed Check and expanded to the provider key: %q", value, got)
			}
			if project && strings.Contains(got, gh) && !strings.Contains(value, gh) {
				t.Fatalf("%q in a project file passed Check and expanded to a secret: %q", value, got)
			}
		}
	})
}
