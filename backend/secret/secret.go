// Package secret keeps API keys out of logs and error texts. It has no
// dependencies so every package that writes text can use it.
package secret

import (
	"regexp"
	"strings"
)

// Placeholder replaces a redacted secret.
const Placeholder = "[REDACTED]"

// keyPattern matches strings shaped like API keys even when the key itself
// is unknown: Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-...),
// OpenRouter (sk-or-...), and bearer tokens in copied headers.
var keyPattern = regexp.MustCompile(`sk-[A-Za-z0-9_\-]{12,}|(?i:bearer)\s+[A-Za-z0-9._~+/\-]{12,}=*`)

// minSecret is the shortest explicit secret Redact replaces; shorter ones
// would redact ordinary words.
const minSecret = 6

// Redact returns s with every given secret and everything that looks like an
// API key replaced by Placeholder.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= minSecret {
			s = strings.ReplaceAll(s, sec, Placeholder)
		}
	}
	return keyPattern.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.IndexAny(m, " \t"); i > 0 && !strings.HasPrefix(m, "sk-") {
			return m[:i+1] + Placeholder // keep "Bearer "
		}
		return Placeholder
	})
}

// Mask shows enough of a key to recognise it in Settings: "sk-ant-…3f9a".
// Keys of 12 characters or fewer are fully hidden.
func Mask(key string) string {
	if key == "" {
		return ""
	}
	if len(key) <= 12 {
		return "…"
	}
	prefix := key[:3]
	if strings.HasPrefix(key, "sk-ant-") {
		prefix = key[:7]
	}
	return prefix + "…" + key[len(key)-4:]
}
