package lsp

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// builtins are the servers Pilot knows, in the order they are tried.
// Python has two (pyright and its fork basedpyright): the first found
// serves.
var builtins = []ServerConfig{
	{
		Name: "gopls", Command: []string{"gopls"}, Languages: []string{"Go"},
		Patterns:    []string{"**/*.go", "**/go.mod", "**/go.work"},
		LanguageIDs: map[string]string{".go": "go", ".mod": "go.mod", ".work": "go.work"},
		Install:     "go install golang.org/x/tools/gopls@latest",
		VersionArgs: []string{"version"},
		// gopls type-checks the changed package at once (its files,
		// changed or not, in milliseconds) and the rest of the workspace
		// a second later (diagnosticsDelay): those come with the next
		// change. Without the delay every change waits for the whole
		// workspace's analysis, 2-3 s on this repository.
	},
	{
		Name: "typescript-language-server", Command: []string{"typescript-language-server", "--stdio"},
		Languages: []string{"TypeScript", "JavaScript"},
		Patterns:  []string{"**/*.{ts,tsx,js,jsx,mts,cts,mjs,cjs}"},
		LanguageIDs: map[string]string{".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
			".tsx": "typescriptreact", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
			".jsx": "javascriptreact"},
		Install: "npm install -g typescript-language-server typescript",
	},
	{
		Name: "pyright", Command: []string{"pyright-langserver", "--stdio"}, Languages: []string{"Python"},
		Patterns: []string{"**/*.{py,pyi}"}, LanguageIDs: map[string]string{".py": "python", ".pyi": "python"},
		Install: "npm install -g pyright",
	},
	{
		Name: "basedpyright", Command: []string{"basedpyright-langserver", "--stdio"}, Languages: []string{"Python"},
		Patterns: []string{"**/*.{py,pyi}"}, LanguageIDs: map[string]string{".py": "python", ".pyi": "python"},
		Install: "pip install basedpyright",
	},
	{
		Name: "rust-analyzer", Command: []string{"rust-analyzer"}, Languages: []string{"Rust"},
		Patterns: []string{"**/*.rs"}, LanguageIDs: map[string]string{".rs": "rust"},
		Install: "rustup component add rust-analyzer",
		// It runs outside the sandbox, and a project's build scripts,
		// proc macros and `cargo check` are the project's code (a command
		// in the sandbox can write build.rs): none of them run.
		InitOptions: map[string]any{
			"cargo":       map[string]any{"buildScripts": map[string]any{"enable": false}},
			"procMacro":   map[string]any{"enable": false},
			"checkOnSave": false,
		},
	},
	{
		Name: "clangd", Command: []string{"clangd"}, Languages: []string{"C", "C++"},
		Patterns:    []string{"**/*.{c,cc,cpp,cxx,h,hh,hpp,hxx}"},
		LanguageIDs: map[string]string{".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp"},
		Install:     "apt install clangd",
	},
}

// serves reports whether the server serves rel ('/'-separated, relative
// to the folder).
func (c *ServerConfig) serves(rel string) bool {
	for _, p := range c.Patterns {
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// languageID is the languageId didOpen names for rel.
func (c *ServerConfig) languageID(rel string) string {
	ext := path.Ext(rel)
	if id, ok := c.LanguageIDs[ext]; ok {
		return id
	}
	return strings.TrimPrefix(ext, ".")
}

// languageOf is the language of rel among the server's, for sentences:
// the one its languageId names (".js" is JavaScript, ".cpp" C++), else the
// server's first.
func (c *ServerConfig) languageOf(rel string) string {
	id := c.languageID(rel)
	for _, prefix := range []bool{false, true} { // "cpp" is C++ before it is C
		for _, l := range c.Languages {
			name := strings.ReplaceAll(strings.ToLower(l), "+", "p")
			if id == name || (prefix && strings.HasPrefix(id, name)) {
				return l
			}
		}
	}
	if len(c.Languages) > 0 {
		return c.Languages[0]
	}
	return c.Name
}

// envValue is key's value in env (the last one wins, as in exec).
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
