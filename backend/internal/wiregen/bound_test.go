package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scratchRepo copies what the generator reads and writes (go.mod, the main
// package's Go files, backend/wire, backend/version and the generated
// files) from the work tree into a temporary folder.
func scratchRepo(t *testing.T) string {
	t.Helper()
	scratch := t.TempDir()
	var rels []string
	for _, pattern := range []string{"go.mod", "*.go", "backend/wire/*.go", "backend/version/*.go", "frontend/src/lib/*.gen.ts"} {
		names, err := filepath.Glob(filepath.Join(repo, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			rel, err := filepath.Rel(repo, name)
			if err != nil {
				t.Fatal(err)
			}
			rels = append(rels, rel)
		}
	}
	copyFiles(t, repo, scratch, rels)
	return scratch
}

// copyFiles copies the files rels (relative paths) from the folder from
// into the folder to; one missing from from (deleted in the work tree, not
// yet committed) is passed over.
func copyFiles(t *testing.T, from, to string, rels []string) {
	t.Helper()
	for _, rel := range rels {
		b, err := os.ReadFile(filepath.Join(from, rel))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStaleBoundAPIFailsCheck is the point of generating the window's
// calls: on a scratch copy of the repository, a method added to App
// without `make bindings` fails the check `make test` runs (make
// bindings-check: wiregen -check), naming the generated file and the
// call; what Wails does not bind (unexported methods, other types' methods,
// tests) changes nothing.
func TestStaleBoundAPIFailsCheck(t *testing.T) {
	t.Parallel()
	mk, err := os.ReadFile(filepath.Join(repo, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^bindings-check:[^\n]*\n(\t[^\n]*\n)*\t\$\(WIREGEN\) -check;`).Match(mk) {
		t.Fatal("the Makefile's bindings-check no longer runs $(WIREGEN) -check: this test checks what make test runs, so update it with the Makefile")
	}
	for _, c := range []struct {
		name, file, src string
		want            []string // what the error names; none: the check passes
	}{
		{"untouched", "", "", nil},
		{"an exported method of *App", "app.go", "func (a *App) Extra() string { return \"\" }",
			[]string{backendTS, "extra(): Promise<string>;"}},
		{"an exported method of App, in a new file", "app_more.go", "package main\n\nimport \"pilot/backend/wire\"\n\nfunc (App) More(id int64) ([]wire.Job, error) { return nil, nil }",
			[]string{backendTS, "more(id: number): Promise<Job[]>;"}},
		{"an unexported method", "app.go", "func (a *App) extra() string { return \"\" }", nil},
		{"a method of another type", "app.go", "func (o *opening) Extra() string { return \"\" }", nil},
		{"a test's method", "app_extra_test.go", "package main\n\nfunc (a *App) Extra() string { return \"\" }", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			scratch := scratchRepo(t)
			if c.file != "" {
				path := filepath.Join(scratch, c.file)
				old, err := os.ReadFile(path)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(old, "\n"+c.src+"\n"...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := check(scratch)
			if c.want == nil {
				if err != nil {
					t.Fatalf("the check fails: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("the check passes with %q added to %s without make bindings", c.src, c.file)
			}
			for _, w := range append(c.want, "run 'make bindings'") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the check's error does not name %q: %v", w, err)
				}
			}
		})
	}
}

// TestTSName: Go names spelled as the window's code spells them.
func TestTSName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"ListDir", "listDir"},
		{"MCPServers", "mcpServers"},
		{"FindMCPResources", "findMcpResources"},
		{"sessionID", "sessionId"},
		{"baseURL", "baseUrl"},
		{"toolCallID", "toolCallId"},
		{"Setup", "setup"},
		{"q", "q"},
	} {
		if got := tsName(c.in); got != c.want {
			t.Errorf("tsName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestBoundRefuses: a bound method the window could not be given a type
// for stops the generator with a sentence that names it.
func TestBoundRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, src, want string }{
		{"two results", "func (a *App) Two() (string, int, error) { return \"\", 0, nil }", "Two: returns 2 values"},
		{"a type of the main package", "func (a *App) Own() *App { return a }", "Own: type *App"},
		{"a directive for no parameter", "//wiregen:param mode ApprovalMode\nfunc (a *App) Mode(m string) {}", "no parameter mode"},
		{"a directive naming no wire type", "//wiregen:param m Nope\nfunc (a *App) Mode(m string) {}", "backend/wire has no type Nope"},
		{"a directive on a number", "//wiregen:param m ApprovalMode\nfunc (a *App) Mode(m int) {}", "only a string parameter"},
		{"an embedded field", "type App struct{ opening }", "App embeds a field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			scratch := scratchRepo(t)
			src := c.src
			if strings.HasPrefix(src, "type App") {
				b, err := os.ReadFile(filepath.Join(scratch, "app.go"))
				if err != nil {
					t.Fatal(err)
				}
				src = regexp.MustCompile(`(?s)type App struct \{.*?\n\}`).ReplaceAllString(string(b), src)
				if err := os.WriteFile(filepath.Join(scratch, "app.go"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(filepath.Join(scratch, "app_refused.go"), []byte("package main\n\n"+src+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := generate(scratch)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one saying %q", err, c.want)
			}
		})
	}
}
