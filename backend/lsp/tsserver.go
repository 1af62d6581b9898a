package lsp

import (
	"os"
	"path/filepath"
)

// ownTsserver is the tsserver.js of the typescript installed beside
// typescript-language-server (exe, as found on PATH), or "" when there is
// none. The server is told to use it (initializationOptions
// tsserver.path): by default it prefers the project's own
// node_modules/typescript, which is the project's code, and the server
// runs outside the sandbox, where a sandboxed command could have written
// that file.
func ownTsserver(exe string) string {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	// .../node_modules/typescript-language-server/lib/cli.mjs
	p := filepath.Join(filepath.Dir(real), "..", "..", "typescript", "lib", "tsserver.js")
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return filepath.Clean(p)
}

// withOwnTsserver gives typescript-language-server its own tsserver.
func withOwnTsserver(cfg ServerConfig, exe string) ServerConfig {
	if cfg.Name != "typescript-language-server" {
		return cfg
	}
	ts := ownTsserver(exe)
	if ts == "" {
		return cfg
	}
	opts := map[string]any{}
	for k, v := range cfg.InitOptions {
		opts[k] = v
	}
	opts["tsserver"] = map[string]any{"path": ts}
	cfg.InitOptions = opts
	return cfg
}
