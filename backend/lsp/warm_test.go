package lsp

import (
	"testing"
	"time"
)

// Warm starts a file's server without waiting and without a change: the
// next change finds it running (and, with gopls, warm). A file no server
// serves starts nothing; a server waiting out its backoff is left alone.
func TestWarmStartsTheServerAhead(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{"a.go": "package m\n\nfunc F() { undefinedFn() }\n"})
	m := manager(t, Options{})
	start := time.Now()
	m.Warm(root, "a.go", "notes.txt", "../outside.go")
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Warm blocked for %s", took)
	}
	if running(m, "gopls", root) == nil {
		t.Fatal("gopls was not started by Warm")
	}
	c := running(m, "gopls", root)
	if err := c.wait(ctx(t)); err != nil {
		t.Fatalf("the warmed server did not initialize: %v", err)
	}
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	if len(find(out.Diagnostics, "a.go", "undefined: undefinedFn")) != 1 || running(m, "gopls", root) != c {
		t.Fatalf("the change is checked by the warmed server: %+v", out)
	}
}

func TestWarmLeavesAFailedServerToTheNextChange(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.bad": "x\n"})
	bad := ServerConfig{Name: "bad", Command: []string{"sh", "-c", "exit 3"}, Patterns: []string{"**/*.bad"}}
	m := manager(t, Options{Extra: []ServerConfig{bad}, Wait: 5 * time.Second})
	for range 2 { // two failed starts: the next waits a second
		if out := m.AfterChange(ctx(t), root, []string{"x.bad"}); len(out.Failed) == 0 {
			t.Fatalf("want the failed start reported, got %+v", out)
		}
	}
	k := key{"bad", root}
	m.mu.Lock()
	h := m.health[k]
	if h == nil || !time.Now().Before(h.next) {
		m.mu.Unlock()
		t.Fatalf("the server is not in its backoff after two failed starts: %+v", h)
	}
	fails := h.fails
	m.mu.Unlock()
	m.Warm(root, "x.bad")
	m.mu.Lock()
	after := m.health[k].fails
	m.mu.Unlock()
	if after != fails || running(m, "bad", root) != nil {
		t.Fatalf("Warm started a server in its backoff: fails %d → %d", fails, after)
	}
}
