package config

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"pilot/backend/lsp"
)

// MaxLanguageServers caps the language servers the user names.
const MaxLanguageServers = 20

// CleanLanguageServers checks the language servers the user names
// (Settings › Languages) and returns them cleaned: each has a name of its
// own, a command and at least one valid file pattern ("**/*.zig"). A bad
// one is refused with a sentence naming it.
func CleanLanguageServers(servers []lsp.ServerConfig) ([]lsp.ServerConfig, error) {
	var out []lsp.ServerConfig
	seen := map[string]bool{}
	for i, s := range servers {
		name := strings.TrimSpace(s.Name)
		var argv []string
		for _, a := range s.Command {
			if a = strings.TrimSpace(a); a != "" {
				argv = append(argv, a)
			}
		}
		var pats []string
		for _, p := range s.Patterns {
			if p = strings.TrimSpace(p); p != "" {
				pats = append(pats, p)
			}
		}
		if name == "" && len(argv) == 0 && len(pats) == 0 {
			continue // an empty row
		}
		switch {
		case name == "":
			return nil, fmt.Errorf("language server %d has no name: give it one (e.g. zls)", i+1)
		case strings.ContainsAny(name, "\x00\n\r"):
			return nil, fmt.Errorf("the language server name %q holds a control character", name)
		case seen[name]:
			return nil, fmt.Errorf("two language servers are named %q: give each its own name", name)
		case len(argv) == 0:
			return nil, fmt.Errorf("the language server %q has no command: give the program to run and its arguments (e.g. zls or pylsp --stdio)", name)
		case len(pats) == 0:
			return nil, fmt.Errorf("the language server %q serves no files: give at least one pattern (e.g. **/*.zig)", name)
		}
		for _, a := range argv {
			if strings.ContainsAny(a, "\x00\n\r") {
				return nil, fmt.Errorf("the command of the language server %q holds a control character", name)
			}
		}
		for _, p := range pats {
			if !doublestar.ValidatePattern(p) {
				return nil, fmt.Errorf("the pattern %q of the language server %q is not a valid glob: write it as **/*.ext", p, name)
			}
		}
		seen[name] = true
		out = append(out, lsp.ServerConfig{Name: name, Command: argv, Patterns: pats, Languages: s.Languages, LanguageIDs: s.LanguageIDs, Install: s.Install})
	}
	if len(out) > MaxLanguageServers {
		return nil, fmt.Errorf("%d language servers were given; at most %d are kept", len(out), MaxLanguageServers)
	}
	return out, nil
}
