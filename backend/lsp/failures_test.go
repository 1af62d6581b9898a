package lsp

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/wire"
)

// hung is a server that reads everything and never answers (its shell
// keeps its output open).
var hung = ServerConfig{
	Name: "hung", Command: []string{"sh", "-c", "cat >/dev/null; exit 0"},
	Patterns: []string{"**/*.hung"}, Languages: []string{"Hung"},
}

// running returns the running client of name for root.
func running(m *Manager, name, root string) *client {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clients[key{name, root}]
}

func TestHungServerIsBoundedByTheWait(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.hung": "x\n"})
	m := manager(t, Options{Extra: []ServerConfig{hung}, Wait: 300 * time.Millisecond})
	for range 2 { // starting, then started and still silent
		start := time.Now()
		out := m.AfterChange(ctx(t), root, []string{"x.hung"})
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("AfterChange took %s with a 300ms wait", took)
		}
		if !slices.Equal(out.TimedOut, []string{"hung"}) || len(out.Diagnostics)+len(out.Failed) != 0 {
			t.Fatalf("want hung timed out, got %+v", out)
		}
	}
	servers := m.Servers(root)
	if i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "hung" }); servers[i].State != wire.ServerRunning {
		t.Fatalf("want hung running (still starting), got %+v", servers[i])
	}
	// Close does not wait for an answer that never comes: the server is
	// killed, and gone when Close returns.
	c := running(m, "hung", root)
	if c == nil {
		t.Fatal("the hung server is not running")
	}
	m.Close()
	select {
	case <-c.exited:
	default:
		t.Fatal("Close returned with the server still running")
	}
	if out := m.AfterChange(ctx(t), root, []string{"x.hung"}); len(out.TimedOut) != 0 {
		t.Fatalf("a closed Manager starts nothing, got %+v", out)
	}
}

// A missing server is named once per language in an outcome, and again
// in the next one: the agent tells it once per session (each session
// hears it once, TestDiagnosticsMissingOnceTimedOut).
func TestMissingServerIsSaidOncePerLanguage(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"a.nope": "x\n", "b.nope": "y\n", "c.txt": "z\n"})
	nope := ServerConfig{Name: "nope", Command: []string{"pilot-no-such-server"}, Patterns: []string{"**/*.nope"}, Languages: []string{"Nope"}}
	m := manager(t, Options{Extra: []ServerConfig{nope}})
	out := m.AfterChange(ctx(t), root, []string{"a.nope", "b.nope", "c.txt"})
	if want := []string{"no Nope language server found (install pilot-no-such-server)"}; !slices.Equal(out.Missing, want) {
		t.Fatalf("want Missing %q, got %+v", want, out)
	}
	if out := m.AfterChange(ctx(t), root, []string{"a.nope"}); len(out.Missing) != 1 {
		t.Fatalf("the second change names it again (for another session's sake), got %+v", out)
	}
	servers := m.Servers(root)
	i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "nope" })
	if i < 0 || servers[i].State != wire.ServerMissing || !servers[i].User || servers[i].Path != "" {
		t.Fatalf("Servers: want nope missing and the user's, got %+v", servers)
	}
}

func TestIdleServerStops(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.hung": "x\n"})
	m := manager(t, Options{Extra: []ServerConfig{hung}, Wait: 100 * time.Millisecond, Idle: 200 * time.Millisecond})
	m.AfterChange(ctx(t), root, []string{"x.hung"})
	c := running(m, "hung", root)
	if c == nil {
		t.Fatal("the server is not running")
	}
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the idle server still runs after 30 s (idle is 200 ms)")
	}
	if running(m, "hung", root) != nil {
		t.Fatal("the stopped server is still listed")
	}
	servers := m.Servers(root)
	if i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "hung" }); servers[i].State != wire.ServerFound || servers[i].LastError != "" {
		t.Fatalf("an idle stop is no failure: got %+v", servers[i])
	}
}

func TestKilledServerIsRestartedAndReportedOnce(t *testing.T) {
	t.Parallel()
	needServer(t, "gopls")
	root := goModule(t, map[string]string{"a.go": "package m\n\nfunc F() { undefinedFn() }\n"})
	m := manager(t, Options{})
	if out := m.AfterChange(ctx(t), root, []string{"a.go"}); len(out.Diagnostics) != 1 {
		t.Fatalf("want the undefined error, got %+v", out)
	}
	c := running(m, "gopls", root)
	c.proc.Kill()
	<-c.exited

	// The next change finds it dead: it says so once, starts it again,
	// and has the diagnostics all the same.
	out := m.AfterChange(ctx(t), root, []string{"a.go"})
	if len(out.Restarted) != 1 || !strings.Contains(out.Restarted[0], "gopls stopped unexpectedly (signal: killed)") || len(out.Failed) != 0 {
		t.Fatalf("want one restart naming the kill and no failure, got %+v", out)
	}
	if len(find(out.Diagnostics, "a.go", "undefined: undefinedFn")) != 1 {
		t.Fatalf("the restarted server answers the same change, got %+v", out)
	}
	out = m.AfterChange(ctx(t), root, []string{"a.go"})
	if len(out.Failed)+len(out.Restarted) != 0 || len(out.Diagnostics) != 1 {
		t.Fatalf("the crash is said once, got %+v", out)
	}
	servers := m.Servers(root)
	i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "gopls" })
	if s := servers[i]; s.State != wire.ServerRunning || !strings.Contains(s.LastError, "signal: killed") || s.Version == "" || s.Path == "" {
		t.Fatalf("Servers: want gopls running with the crash as its last error and a version, got %+v", s)
	}
}

func TestBackoffGrows(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]time.Duration{1: 0, 2: time.Second, 3: 2 * time.Second, 6: 16 * time.Second, 7: 30 * time.Second, 40: 30 * time.Second} {
		if got := backoff(n); got != want {
			t.Errorf("backoff(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestServerThatCannotStartIsReportedEachTime(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.bad": "x\n"})
	bad := ServerConfig{Name: "bad", Command: []string{"sh", "-c", "echo broken >&2; exit 3"}, Patterns: []string{"**/*.bad"}}
	var log lockedBuffer
	m := manager(t, Options{Extra: []ServerConfig{bad}, Wait: 10 * time.Second, Log: slog.New(slog.NewTextHandler(&log, nil))})
	// The first start fails; the second comes at once (no backoff for
	// the first restart) and fails too; the third is a second away.
	for i := range 3 {
		out := m.AfterChange(ctx(t), root, []string{"x.bad"})
		if len(out.Failed) != 1 || !strings.Contains(out.Failed[0], "exit status 3") || len(out.TimedOut) != 0 {
			t.Fatalf("change %d: want one failure naming exit status 3, got %+v", i, out)
		}
	}
	servers := m.Servers(root)
	i := slices.IndexFunc(servers, func(s wire.LanguageServer) bool { return s.Name == "bad" })
	if s := servers[i]; s.State != wire.ServerFailed || !strings.Contains(s.LastError, "exit status 3") {
		t.Fatalf("Servers: want bad failed with its exit, got %+v", s)
	}
	// Its stderr went to the log.
	if !strings.Contains(log.String(), `msg="language server stderr" server=bad`) || !strings.Contains(log.String(), "line=broken") {
		t.Fatalf("the server's stderr is not in the log:\n%s", log.String())
	}
}

// lockedBuffer is a bytes.Buffer written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestCloseRootStopsItsServersOnly(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	for _, root := range []string{a, b} {
		write(t, root, map[string]string{"x.hung": "x\n"})
	}
	m := manager(t, Options{Extra: []ServerConfig{hung}, Wait: 100 * time.Millisecond})
	m.AfterChange(ctx(t), a, []string{"x.hung"})
	m.AfterChange(ctx(t), b, []string{"x.hung"})
	ca, cb := running(m, "hung", a), running(m, "hung", b)
	m.CloseRoot(a)
	select {
	case <-ca.exited:
	default:
		t.Fatal("CloseRoot returned with the folder's server running")
	}
	if !cb.alive() || running(m, "hung", b) != cb {
		t.Fatal("CloseRoot stopped another folder's server")
	}
}

func TestSilentServerIsBoundedByTheWait(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.silent": "x\n"})
	silent := ServerConfig{Name: "silent", Command: []string{os.Args[0]}, Patterns: []string{"**/*.silent"}}
	m := manager(t, Options{Extra: []ServerConfig{silent}, Wait: 500 * time.Millisecond,
		Env: append(os.Environ(), "PILOT_LSP_FAKE=silent")})
	check := func(i int) {
		t.Helper()
		start := time.Now()
		out := m.AfterChange(ctx(t), root, []string{"x.silent"})
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("change %d took %s with a 500ms wait", i, took)
		}
		if !slices.Equal(out.TimedOut, []string{"silent"}) || len(out.Diagnostics)+len(out.Failed)+len(out.Checked) != 0 {
			t.Fatalf("change %d: want silent timed out and nothing checked, got %+v", i, out)
		}
	}
	check(0) // starting (or started)
	c := running(m, "silent", root)
	select {
	case <-c.ready:
	case <-ctx(t).Done():
	}
	if c.initErr != nil {
		t.Fatal(c.initErr)
	}
	check(1) // initialized, given the file, silent
	if !c.isOpen(filepath.Join(root, "x.silent")) {
		t.Fatal("the file was not given to the silent server")
	}
	// It answers no shutdown either: Close ends it all the same.
	m.Close()
	select {
	case <-c.exited:
	default:
		t.Fatal("Close returned with the silent server running")
	}
}

// A user's server with no command (a hand-edited settings file) is left
// out: listing the servers and checking a file do not index it.
func TestServerWithoutACommandIsLeftOut(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"x.none": "x\n"})
	m := manager(t, Options{Extra: []ServerConfig{{Name: "none", Patterns: []string{"**/*.none"}}}})
	if out := m.AfterChange(ctx(t), root, []string{"x.none"}); len(out.Diagnostics)+len(out.Failed)+len(out.Missing) != 0 {
		t.Fatalf("a server without a command answered: %+v", out)
	}
	for _, s := range m.Servers(root) {
		if s.Name == "none" {
			t.Fatalf("listed: %+v", s)
		}
	}
}
