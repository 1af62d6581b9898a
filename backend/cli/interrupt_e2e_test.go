package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/paths"
	"pilot/backend/store"
)

// until waits for cond, checking it whenever a short tick passes; it fails
// the test after a generous deadline. It waits for a state, not a time.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sawRequest reports whether the fake server received a request match
// accepts.
func sawRequest(srv *fakellm.Server, match func(fakellm.Request) bool) func() bool {
	return func() bool {
		for _, r := range srv.Requests() {
			if match(r) {
				return true
			}
		}
		return false
	}
}

// TestHeadlessInterruptEveryState sends SIGINT to `pilot -p` in each state
// a turn can block in, once that state is reached, and measures how long
// the binary takes to exit: it must end the turn, exit 130 with one line
// on stderr, and leave the session saved with nothing still running.
func TestHeadlessInterruptEveryState(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var fetchHit atomic.Bool
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetchHit.Store(true)
		<-r.Context().Done() // a server that never answers
	}))
	defer stalled.Close()

	stall := &fakellm.Fault{StallAfterEvents: 3}
	isSummary := func(r fakellm.Request) bool { return strings.Contains(r.System, "You compact the history") }
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{Text: "partial answer and then nothing", Fault: stall, Repeat: true, When: &fakellm.When{LastUserContains: "stream"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: []byte(`{"command":"touch started && sleep 100"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "command"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "task", Input: []byte(`{"description":"look","prompt":"HELPERJOB look around"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "helper"}},
		{Text: "helper thinking", Fault: stall, Repeat: true, When: &fakellm.When{LastUserContains: "HELPERJOB"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "mcp__t__hang", Input: []byte(`{}`)}}, Repeat: true, When: &fakellm.When{LastUserContains: "mcp"}},
		{ToolCalls: []fakellm.ToolCall{{Name: "web_fetch", Input: []byte(`{"url":"` + stalled.URL + `/page"}`)}}, Repeat: true,
			When: &fakellm.When{LastUserContains: "fetch"}},
		{Text: "summary", Fault: stall, Repeat: true, Match: isSummary},
		{Text: "Warm.", Repeat: true, When: &fakellm.When{LastUserContains: "warm up"}},
		{Fault: &fakellm.Fault{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}`},
			Repeat: true, When: &fakellm.When{LastUserContains: "compact"}},
	}})
	defer srv.Close()

	for _, tc := range []struct {
		state   string
		prompt  string
		resume  bool // a first turn gives the session a history to compact
		reached func(dir string) func() bool
	}{
		{"streaming", "stream please", false, func(string) func() bool {
			return sawRequest(srv, func(r fakellm.Request) bool { return strings.Contains(r.LastUserText, "stream") })
		}},
		{"command", "run a command", false, func(dir string) func() bool {
			return func() bool { _, err := os.Stat(filepath.Join(dir, "started")); return err == nil }
		}},
		{"helper task", "ask a helper", false, func(string) func() bool {
			return sawRequest(srv, func(r fakellm.Request) bool { return strings.Contains(r.LastUserText, "HELPERJOB") })
		}},
		{"MCP call", "call mcp", false, func(dir string) func() bool {
			return func() bool { _, err := os.Stat(filepath.Join(dir, "..", "mcp-started")); return err == nil }
		}},
		{"web fetch", "fetch it", false, func(string) func() bool { return fetchHit.Load }},
		{"compaction", "compact", true, func(string) func() bool { return sawRequest(srv, isSummary) }},
	} {
		t.Run(tc.state, func(t *testing.T) {
			home := t.TempDir()
			dir := tempProject(t, map[string]string{"a.txt": "a\n"})
			mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"t": map[string]any{
				"command": exe, "args": []string{"-test.run=^$"},
				"env": map[string]string{"PILOT_MCP_TEST_SERVER": "1", "PILOT_MCP_TEST_STARTED": filepath.Join(dir, "..", "mcp-started")},
			}}})
			if err := os.WriteFile(filepath.Join(home, "mcp.json"), mcpJSON, 0o600); err != nil {
				t.Fatal(err)
			}
			allowLocal(t, home, dir, "127.0.0.1")
			args := []string{"-p", tc.prompt, "--project", dir, "--approve", "all"}
			if tc.resume {
				if out, err := command(t, srv, home, "-p", "warm up", "--project", dir).CombinedOutput(); err != nil {
					t.Fatalf("first turn: %v\n%s", err, out)
				}
				args = append(args, "--resume", "1")
			}
			cmd := command(t, srv, home, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			reached := tc.reached(dir)
			until(t, tc.state, func() bool {
				select {
				case err := <-exited:
					t.Fatalf("exited before reaching %s: %v\n%s", tc.state, err, stderr.String())
				default:
				}
				return reached()
			})
			start := time.Now()
			_ = cmd.Process.Signal(syscall.SIGINT)
			var err error
			select {
			case err = <-exited:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("%s: still running 30 s after SIGINT\n%s", tc.state, stderr.String())
			}
			took := time.Since(start)
			t.Logf("%s: exited %v after SIGINT", tc.state, took.Round(time.Millisecond))
			var exit *exec.ExitError
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if !errors.As(err, &exit) || exit.ExitCode() != 130 || lines[len(lines)-1] != "pilot: cancelled" {
				t.Errorf("%s: exit %v, stderr %q", tc.state, err, stderr.String())
			}
			if took > 5*time.Second {
				t.Errorf("%s: took %v to exit after SIGINT", tc.state, took)
			}
			checkSaved(t, home)
		})
	}
}

// allowLocal adds the rule "allow web_fetch host" to the project, as
// Settings would.
func allowLocal(t *testing.T, home, dir, host string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	abs, _ := filepath.EvalSymlinks(dir)
	p, err := st.Projects.Touch(ctx, abs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Rules.Add(ctx, store.Rule{ProjectID: p.ID, Tool: "web_fetch", Pattern: host, Effect: store.Allow}); err != nil {
		t.Fatal(err)
	}
}

// checkSaved reads the database as the binary left it (no start-up
// repair) and checks the session is not left running and no tool call is
// left running or waiting.
func checkSaved(t *testing.T, home string) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite3", "file:"+paths.DB(home)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var running, calls int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE state = 'running'`).Scan(&running); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM tool_calls WHERE status IN ('running', 'awaiting_approval')`).Scan(&calls); err != nil {
		t.Fatal(err)
	}
	if running != 0 || calls != 0 {
		t.Errorf("after the exit: %d sessions still running, %d tool calls still running", running, calls)
	}
}

// TestHeadlessInterruptOrphanHoldingOutput: a command whose child left
// its process group (setsid) and keeps the output pipe open survives the
// group's kill; SIGINT must still end `pilot -p` at once (the output is
// not waited for), with the session saved as cancelled.
func TestHeadlessInterruptOrphanHoldingOutput(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{Name: "run_bash", Input: []byte(`{"command":"touch started; setsid sleep 1000.25 & wait"}`)}}, When: &fakellm.When{LastUserContains: "orphan"}},
		{Text: "Ran.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, map[string]string{"a.txt": "a\n"})
	cmd := command(t, srv, home, "-p", "start the orphan", "--project", dir, "--approve", "all")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exec.Command("pkill", "-f", "sleep 1000.25").Run() })
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	until(t, "the command started", func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("still running 30 s after SIGINT\n%s", stderr.String())
	}
	took := time.Since(start)
	t.Logf("a command's orphan holding the output: exited %v after SIGINT", took.Round(time.Millisecond))
	var exit *exec.ExitError
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if !errors.As(err, &exit) || exit.ExitCode() != 130 || !strings.HasPrefix(lines[len(lines)-1], "pilot: cancelled") {
		t.Errorf("exit %v, stderr %q", err, stderr.String())
	}
	if took > 5*time.Second {
		t.Errorf("took %v to exit after SIGINT", took)
	}
	checkSaved(t, home)
}
