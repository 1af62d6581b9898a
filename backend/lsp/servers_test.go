package lsp

import (
	"testing"
)

func TestLanguageOf(t *testing.T) {
	t.Parallel()
	byName := map[string]ServerConfig{}
	for _, c := range builtins {
		byName[c.Name] = c
	}
	for _, c := range []struct{ server, file, want string }{
		{"gopls", "a/b.go", "Go"},
		{"gopls", "go.mod", "Go"},
		{"typescript-language-server", "x.tsx", "TypeScript"},
		{"typescript-language-server", "x.mjs", "JavaScript"},
		{"clangd", "x.c", "C"},
		{"clangd", "x.hpp", "C++"},
		{"pyright", "x.py", "Python"},
	} {
		cfg := byName[c.server]
		if got := cfg.languageOf(c.file); got != c.want || !cfg.serves(c.file) {
			t.Errorf("%s %s: language %q (serves %v), want %q", c.server, c.file, got, cfg.serves(c.file), c.want)
		}
	}
}
