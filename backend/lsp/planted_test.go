package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// plant writes, at each path under root, a script that leaves a marker in
// marks when run: what a command in the sandbox could write.
func plant(t *testing.T, root, marks string, paths ...string) {
	t.Helper()
	for _, rel := range paths {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\necho \"$0 $*\" >> " + filepath.Join(marks, "ran") + "\nexit 1\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProjectsProgramsAreNotRun: with PATH entries naming the project (as
// absolute entries; relative ones are the binary test's, which runs in the
// project), the project's gopls, typescript-language-server, go and node
// are never run: not to list the servers and their versions, not for a
// change, not by the real server in turn. The real gopls on an absolute
// entry outside serves, and a server found only in the project is missing
// with a sentence saying where it was and why it was not run.
func TestProjectsProgramsAreNotRun(t *testing.T) {
	t.Parallel()
	real := needServer(t, "gopls")
	root := goModule(t, map[string]string{"main.go": "package m\n\nfunc A() { undefinedA() }\n"})
	marks := t.TempDir()
	plant(t, root, marks, "gopls", "go", "node", "typescript-language-server", "pilot-planted-server",
		"node_modules/.bin/gopls", "node_modules/.bin/go", "node_modules/.bin/node", "node_modules/.bin/typescript-language-server")
	path := strings.Join([]string{filepath.Join(root, "node_modules", ".bin"), root, os.Getenv("PATH"), ""}, string(filepath.ListSeparator))
	env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }), "PATH="+path)
	planted := ServerConfig{Name: "planted", Command: []string{"pilot-planted-server"}, Patterns: []string{"**/*.planted"}, Languages: []string{"Planted"}}
	write(t, root, map[string]string{"x.planted": "x\n", "a.ts": "const a: number = 1;\n"})
	m := manager(t, Options{Env: env, Extra: []ServerConfig{planted}})

	servers := m.Servers(root)
	byName := map[string]wire.LanguageServer{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	if s := byName["gopls"]; s.Path != real || s.State != wire.ServerFound {
		t.Errorf("gopls: %+v, want the real one at %s", s, real)
	}
	if s := byName["planted"]; s.State != wire.ServerMissing || s.Path != "" ||
		!strings.Contains(s.LastError, filepath.Join(root, "pilot-planted-server")) || !strings.Contains(s.LastError, "Pilot does not run programs from there") {
		t.Errorf("the project's own server: %+v, want missing with where it was and why it was not run", s)
	}
	out := m.AfterChange(ctx(t), root, []string{"main.go", "x.planted", "a.ts"})
	if len(find(out.Diagnostics, "main.go", "undefined: undefinedA")) != 1 {
		t.Errorf("the real gopls did not serve: %+v", out)
	}
	if !slices.ContainsFunc(out.Missing, func(s string) bool {
		return strings.HasPrefix(s, "no Planted language server found") && strings.Contains(s, "was found only at")
	}) {
		t.Errorf("Missing %q does not say where the project's server was", out.Missing)
	}
	m.Close()
	if b, err := os.ReadFile(filepath.Join(marks, "ran")); err == nil {
		t.Fatalf("the project's programs ran on the host:\n%s", b)
	}
}
