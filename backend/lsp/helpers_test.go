package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/hostexec"
	"pilot/backend/wire"
)

// needServer returns the server's executable, or skips the test when it
// is not installed (`make deps` installs gopls and
// typescript-language-server); under CI a missing server fails.
func needServer(t testing.TB, name string) string {
	t.Helper()
	p, err := hostexec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not on PATH; make deps installs it", name)
		}
		t.Skipf("%s is not on PATH (make deps installs it)", name)
	}
	return p
}

// write puts files (relative path → text) under root.
func write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goModule makes a Go module in a temporary folder.
func goModule(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"})
	write(t, root, files)
	return root
}

// manager makes a Manager closed with the test, with a wait long enough
// for a cold server on a loaded machine.
func manager(t testing.TB, opts Options) *Manager {
	t.Helper()
	if opts.Wait == 0 {
		opts.Wait = 60 * time.Second
	}
	m := New(opts)
	t.Cleanup(m.Close)
	return m
}

// ctx is a context ended with the test.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return c
}

// find returns the diagnostics of path whose message contains s.
func find(ds []wire.Diagnostic, path, s string) []wire.Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d wire.Diagnostic) bool {
		return d.Path != path || !strings.Contains(d.Message, s)
	})
}

// errorsIn returns the errors of path.
func errorsIn(ds []wire.Diagnostic, path string) []wire.Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d wire.Diagnostic) bool {
		return d.Path != path || d.Severity != wire.SeverityError
	})
}

// itemsOrNil is p's diagnostics, nil for no publication.
func (p *published) itemsOrNil() []lspDiagnostic {
	if p == nil {
		return nil
	}
	return p.items
}
