package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/wire"
)

func TestGoplsUndefinedFunction(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{"a.go": "package m\n\nfunc F() { undefinedFn() }\n"})
	// The environment the service gives servers: childenv's allowlist.
	m := manager(t, Options{Env: childenv.Env(os.Environ(), root, nil)})
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	got := find(out.Diagnostics, "a.go", "undefined: undefinedFn")
	if len(got) != 1 || got[0].Line != 3 || got[0].Col != 12 || got[0].Severity != "error" {
		t.Fatalf("want one error a.go:3:12 undefined: undefinedFn, got %+v (outcome %+v)", out.Diagnostics, out)
	}
	if !slices.Contains(out.Checked, "a.go") || len(out.TimedOut)+len(out.Failed)+len(out.Missing) != 0 {
		t.Fatalf("outcome %+v", out)
	}

	// The fix: the same file, correct now, has no diagnostics left.
	write(t, root, map[string]string{"a.go": "package m\n\nfunc F() { println() }\n"})
	out = m.AfterChange(ctx(t), root, []string{"a.go"})
	if len(out.Diagnostics) != 0 || !slices.Contains(out.Checked, "a.go") {
		t.Fatalf("a correct change: want no diagnostics and a.go checked, got %+v", out)
	}
}

func TestGoplsColumnsCountCharacters(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	// Two emoji are four UTF-16 code units and eight bytes: the column is
	// the 18th character all the same.
	root := goModule(t, map[string]string{"a.go": "package m\n\nvar _, _ = \"😀😀\", undefinedX\n"})
	out := manager(t, Options{}).AfterChange(ctx(t), root, []string{"a.go"})
	got := find(out.Diagnostics, "a.go", "undefined: undefinedX")
	if len(got) != 1 || got[0].Line != 3 || got[0].Col != 18 {
		t.Fatalf("want a.go:3:18 undefined: undefinedX, got %+v", out)
	}
}

func TestGoplsDependentBrokenByChange(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{
		"a.go":     "package m\n\n// G doubles x.\nfunc G(x int) int { return 2 * x }\n",
		"b.go":     "package m\n\n// H uses G.\nfunc H() int { return G(1) }\n",
		"sub/c.go": "package sub\n\nimport \"example.com/m\"\n\n// K uses G.\nfunc K() int { return m.G(1) }\n",
		"d.go":     "package m\n\n// D is another file.\nfunc D() {}\n",
	})
	m := manager(t, Options{})
	if out := m.AfterChange(ctx(t), root, []string{"a.go"}); len(out.Diagnostics) != 0 {
		t.Fatalf("the module compiles, got %+v", out)
	}
	// G takes two arguments now: b.go, which the change did not touch,
	// no longer compiles, and the tool result says so at once.
	write(t, root, map[string]string{"a.go": "package m\n\n// G adds.\nfunc G(x, y int) int { return x + y }\n"})
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	got := errorsIn(out.Diagnostics, "b.go")
	if len(got) != 1 || got[0].Line != 4 || len(errorsIn(out.Diagnostics, "a.go")) != 0 {
		t.Fatalf("want the error in b.go:4 and none in a.go, got %+v", out)
	}

	// gopls checks the other packages a second later: sub/c.go's error
	// comes with the next change, and is current at once.
	c := running(m, "gopls", root)
	waitFor(t, c, func() bool { return len(c.diags[filepath.Join(root, "sub", "c.go")].itemsOrNil()) > 0 })
	if cur := m.Current(ctx(t), root, ""); len(errorsIn(cur.Diagnostics, "sub/c.go")) != 1 {
		t.Fatalf("Current: want the error in sub/c.go, got %+v", cur)
	}
	write(t, root, map[string]string{"d.go": "package m\n\n// D is another file.\nfunc D() { _ = 1 }\n"})
	out = m.AfterChange(ctx(t), root, []string{"d.go"})
	if len(errorsIn(out.Diagnostics, "sub/c.go")) != 1 || len(errorsIn(out.Diagnostics, "b.go")) != 0 {
		t.Fatalf("want sub/c.go's error with the next change and b.go's not again, got %+v", out)
	}
}

// waitFor waits until cond (called with the client's lock held) holds.
func waitFor(t *testing.T, c *client, cond func() bool) {
	t.Helper()
	for {
		c.mu.Lock()
		ok, ch := cond(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-c.exited:
			t.Fatal("the server exited")
		case <-ctx(t).Done():
			return
		}
	}
}

func TestGoplsDeletedFileIsClosed(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{
		"a.go": "package m\n\n// A is fine.\nfunc A() {}\n",
		"b.go": "package m\n\nfunc B() { undefinedFn() }\n",
	})
	m := manager(t, Options{})
	if out := m.AfterChange(ctx(t), root, []string{"a.go", "b.go"}); len(errorsIn(out.Diagnostics, "b.go")) != 1 {
		t.Fatalf("want b.go's error, got %+v", out)
	}
	if err := os.Remove(filepath.Join(root, "b.go")); err != nil {
		t.Fatal(err)
	}
	out := m.AfterChange(ctx(t), root, []string{"b.go"})
	if len(out.TimedOut)+len(out.Failed) != 0 || len(errorsIn(out.Diagnostics, "b.go")) != 0 {
		t.Fatalf("a deleted file: want no wait and no error of it, got %+v", out)
	}
	if running(m, "gopls", root).isOpen(filepath.Join(root, "b.go")) {
		t.Fatal("the deleted file is still open with the server")
	}
}

func TestGoplsCurrentAndServers(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{
		"a.go": "package m\n\nfunc A() { undefinedA() }\n",
		"b.go": "package m\n\nfunc B() { undefinedB() }\n",
	})
	m := manager(t, Options{})
	servers := m.Servers(root)
	i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "gopls" })
	// The version is asked again while it could not be had (a loaded
	// machine can make gopls miss the probe's 5 s).
	for deadline := time.Now().Add(time.Minute); servers[i].Version == "" && time.Now().Before(deadline); {
		servers = m.Servers(root)
	}
	if s := servers[i]; s.State != wire.ServerFound || !strings.Contains(s.Version, "v0.") || s.Path == "" || s.User {
		t.Fatalf("before any change: want gopls found with its version, got %+v", s)
	}
	// Nothing is open: Current opens the file and waits for it.
	out := m.Current(ctx(t), root, "a.go")
	if len(find(out.Diagnostics, "a.go", "undefined: undefinedA")) != 1 || len(out.TimedOut) != 0 {
		t.Fatalf("Current(a.go): want its error, got %+v", out)
	}
	// Open: it answers from what the server said, the same.
	out = m.Current(ctx(t), root, "a.go")
	if len(out.Diagnostics) != 1 || !slices.Equal(out.Checked, []string{"a.go"}) {
		t.Fatalf("Current(a.go) again: want its one error, got %+v", out)
	}
	// The project: every file the server reported on, b.go too (gopls
	// checks the whole package of an open file).
	out = m.Current(ctx(t), root, "")
	if len(find(out.Diagnostics, "b.go", "undefined: undefinedB")) != 1 || len(find(out.Diagnostics, "a.go", "undefinedA")) != 1 {
		t.Fatalf("Current(\"\"): want a.go's and b.go's errors, got %+v", out)
	}
	// A folder: the files under it only.
	write(t, root, map[string]string{"sub/c.go": "package sub\n\nfunc C() { undefinedC() }\n"})
	if out := m.AfterChange(ctx(t), root, []string{"sub/c.go"}); len(errorsIn(out.Diagnostics, "sub/c.go")) != 1 {
		t.Fatalf("want sub/c.go's error, got %+v", out)
	}
	out = m.Current(ctx(t), root, "sub")
	if len(out.Diagnostics) != 1 || out.Diagnostics[0].Path != "sub/c.go" || !slices.Equal(out.Checked, []string{"sub/c.go"}) {
		t.Fatalf("Current(sub): want sub/c.go's error only, got %+v", out)
	}
	if s := m.Servers(root)[i]; s.State != wire.ServerRunning {
		t.Fatalf("want gopls running, got %+v", s)
	}
	if s := m.Servers(t.TempDir())[i]; s.State != wire.ServerFound {
		t.Fatalf("another folder: want gopls found, not running, got %+v", s)
	}
}
