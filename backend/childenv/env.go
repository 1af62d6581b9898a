package childenv

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MinKeyLen is the shortest key looked for inside values; a shorter one is
// kept from children by its variable's name only. Hosted providers' keys
// are 30 to 200 characters; local servers take placeholders ("ollama",
// "lm-studio") that would otherwise drop a PATH or refuse a server whose
// arguments merely name the program.
const MinKeyLen = 16

var held struct {
	mu   sync.RWMutex
	keys []string
}

// Hold records keys Pilot holds (saved keys, the key in use): no child gets
// a variable whose value contains one, and no MCP configuration may carry
// one. Empty and short keys are ignored. Safe for concurrent use.
func Hold(keys ...string) {
	held.mu.Lock()
	defer held.mu.Unlock()
	for _, k := range keys {
		k = strings.TrimSpace(k)
		if len(k) >= MinKeyLen && !slices.Contains(held.keys, k) {
			held.keys = append(held.keys, k)
		}
	}
}

// heldKeys are the keys passed to Hold, the values of the key variables
// in Pilot's environment, and those in extra (a base environment).
func heldKeys(extra []string) []string {
	held.mu.RLock()
	keys := slices.Clone(held.keys)
	held.mu.RUnlock()
	add := func(v string) {
		if v = strings.TrimSpace(v); len(v) >= MinKeyLen {
			keys = append(keys, v)
		}
	}
	for _, name := range keyVars() {
		add(os.Getenv(name))
	}
	for _, kv := range extra {
		if name, v, _ := strings.Cut(kv, "="); KeyVar(name) {
			add(v)
		}
	}
	return keys
}

// HoldsKey reports whether s contains a key Pilot holds: one passed to
// Hold, or the value of a key variable in Pilot's environment or in base
// (the environment a child's configuration is read against; may be nil).
func HoldsKey(s string, base []string) bool { return containsAny(s, heldKeys(base)) }

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// urlPassword finds a URL with a password in it: scheme://user:pass@host.
var urlPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s@:]*:[^/\s@]*@`)

// passes reports whether the variable name=value of Pilot's environment
// may pass to a child: allowed by name, not a secret by name, not a key
// variable, not a URL with a password, and holding none of keys.
func passes(name, value string, keys []string) bool {
	return Allowed(name) && !SecretName(name) && !KeyVar(name) &&
		!(strings.Contains(value, "@") && urlPassword.MatchString(value)) && !containsAny(value, keys)
}

// Env returns the environment of a program Pilot starts in dir: the
// variables of base (Pilot's own environment, usually os.Environ()) that
// the allowlist lets through and that neither name nor hold a secret, PWD set to dir when dir is absolute, then own, the
// variables the program's configuration gives it, in sorted order. An own
// value that contains a key Pilot holds is dropped; an own name replaces
// the same name from base.
func Env(base []string, dir string, own map[string]string) []string {
	keys := heldKeys(base)
	out := make([]string, 0, len(own)+16)
	for _, kv := range base {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || strings.EqualFold(name, "PWD") || setByOwn(name, own) {
			continue
		}
		if passes(name, value, keys) {
			out = append(out, kv)
		}
	}
	if filepath.IsAbs(dir) {
		if _, set := own["PWD"]; !set {
			out = append(out, "PWD="+dir)
		}
	}
	names := make([]string, 0, len(own))
	for k := range own {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if k != "" && !strings.Contains(k, "=") && !containsAny(own[k], keys) {
			out = append(out, k+"="+own[k])
		}
	}
	return out
}

// setByOwn: own sets name, so base's value of it is not used.
func setByOwn(name string, own map[string]string) bool {
	_, set := own[name]
	return set
}

// Redact returns s with every key Pilot holds replaced by "[API key]", for
// text shown to the user (a configuration row).
func Redact(s string) string {
	for _, k := range heldKeys(nil) {
		s = strings.ReplaceAll(s, k, "[API key]")
	}
	return s
}
