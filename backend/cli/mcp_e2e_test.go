package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
)

// everythingServer installs @modelcontextprotocol/server-everything from
// npm into a cache folder shared by test runs and returns its binary.
func everythingServer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("installs an npm package")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the test against the real npm MCP server needs node and npm", tool)
		}
	}
	cache := filepath.Join(os.TempDir(), "pilot-npm-cache")
	bin := filepath.Join(cache, "node_modules", ".bin", "mcp-server-everything")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	cmd := exec.Command("npm", "install", "--prefix", cache, "--no-audit", "--no-fund", "@modelcontextprotocol/server-everything")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install @modelcontextprotocol/server-everything: %v\n%s", err, out)
	}
	return bin
}

// processesWith lists the processes whose environment holds marker.
func processesWith(marker string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestHeadlessMCPWithServerEverything(t *testing.T) {
	t.Parallel()
	server := everythingServer(t)
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "sum", Name: "mcp__everything__get-sum", Input: []byte(`{"a": 2, "b": 3}`)},
			{ID: "img", Name: "mcp__everything__get-tiny-image", Input: []byte(`{}`)},
			{ID: "env", Name: "mcp__everything__get-env", Input: []byte(`{}`)},
		}, Repeat: true, When: &fakellm.When{LastUserContains: "Add"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
		{Text: "Sunny.", Repeat: true, When: &fakellm.When{LastUserContains: "weather"}},
	}})
	defer srv.Close()
	home := t.TempDir()
	marker := "pilot-mcp-e2e-" + filepath.Base(home)
	mcpJSON := `{"mcpServers": {"everything": {"command": "` + server + `", "env": {"PILOT_MARK": "` + marker + `", "EXPANDED": "${HOME:-none}"}}}}`
	dir := tempProject(t, map[string]string{".mcp.json": mcpJSON})

	run := func(args ...string) (string, string, error) {
		cmd := command(t, srv, home, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	// Untrusted: nothing runs, and the user is told how to trust it.
	_, stderr, err := run("-p", "Add 2 and 3", "--project", dir, "--approve", "all")
	if err != nil {
		t.Fatalf("untrusted run: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "pilot mcp trust") {
		t.Errorf("no word about trust:\n%s", stderr)
	}
	if reqs := srv.Requests(); len(reqs) == 0 || strings.Contains(strings.Join(reqs[0].Tools, ","), "mcp__") {
		t.Fatalf("an untrusted server's tools were offered")
	}
	stdout, stderr, err := run("mcp", "trust", "--project", dir)
	if err == nil || !strings.Contains(stdout, server) {
		t.Fatalf("trust without a terminal or --yes must show the command and refuse: %v\n%s%s", err, stdout, stderr)
	}
	if stdout, stderr, err = run("mcp", "trust", "--project", dir, "--yes"); err != nil {
		t.Fatalf("trust: %v\n%s%s", err, stdout, stderr)
	}
	stdout, _, _ = run("mcp", "list", "--project", dir)
	if !strings.Contains(stdout, "everything\tproject\tready") {
		t.Fatalf("mcp list:\n%s", stdout)
	}

	before := len(srv.Requests())
	stdout, stderr, err = run("-p", "Add 2 and 3", "--project", dir, "--approve", "all", "--json")
	if err != nil {
		t.Fatalf("trusted run: %v\n%s", err, stderr)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) < 2 {
		t.Fatalf("requests %d\n%s", len(reqs), stderr)
	}
	if !strings.Contains(strings.Join(reqs[0].Tools, ","), "mcp__everything__get-sum") {
		t.Fatalf("tools offered %v", reqs[0].Tools)
	}
	res := map[string]fakellm.ToolResult{}
	for _, r := range reqs[1].ToolResults {
		res[r.ToolUseID] = r
	}
	if !strings.Contains(res["sum"].Content, "5") {
		t.Errorf("get-sum: %+v", res["sum"])
	}
	if env := res["env"].Content; strings.Contains(env, "sk-test") || strings.Contains(env, "ANTHROPIC") || !strings.Contains(env, marker) || !strings.Contains(env, `"EXPANDED": "`+home) {
		t.Errorf("the server's environment: %s", env)
	}
	body, _ := json.Marshal(reqs[1].Body)
	if !strings.Contains(string(body), `"type":"image"`) || !strings.Contains(string(body), `"media_type":"image/png"`) {
		t.Errorf("the tiny image did not reach the model as an image block")
	}
	if !strings.Contains(stdout, `"type":"tool_result"`) {
		t.Errorf("json output:\n%s", stdout)
	}

	// An MCP prompt is a slash command.
	if out, _, _ := run("mcp", "get", "everything", "--project", dir); !strings.Contains(out, "/mcp__everything__args-prompt city state") {
		t.Errorf("mcp get lists no prompts:\n%s", out)
	}
	before = len(srv.Requests())
	if _, stderr, err = run("-p", "/mcp__everything__args-prompt Paris France", "--project", dir, "--approve", "none"); err != nil {
		t.Fatalf("MCP prompt: %v\n%s", err, stderr)
	}
	if got := srv.Requests()[before].LastUserText; got != "What's weather in Paris, France?" {
		t.Errorf("the MCP prompt sent %q", got)
	}

	// --approve none refuses MCP calls.
	before = len(srv.Requests())
	if _, stderr, err = run("-p", "Add 2 and 3", "--project", dir, "--approve", "none"); err != nil {
		t.Fatalf("none: %v\n%s", err, stderr)
	}
	for _, r := range srv.Requests()[before+1].ToolResults {
		if !r.IsError || !strings.Contains(r.Content, "Not done") {
			t.Errorf("--approve none: %+v", r)
		}
	}

	// Every run reaped its server.
	deadline := time.Now().Add(5 * time.Second)
	for len(processesWith(marker)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if p := processesWith(marker); len(p) > 0 {
		t.Fatalf("MCP server processes left behind: %v", p)
	}

	// A changed file asks again.
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(strings.Replace(mcpJSON, "none", "other", 1)), 0o644)
	if _, stderr, _ = run("-p", "Add 2 and 3", "--project", dir, "--approve", "all"); !strings.Contains(stderr, "not trusted") {
		t.Errorf("a changed .mcp.json was used without asking:\n%s", stderr)
	}
}

func TestMCPCommands(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, nil)
	run := func(args ...string) (string, string, int) {
		cmd := command(t, srv, home, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return stdout.String(), stderr.String(), code
	}
	if _, e, code := run("mcp", "add", "fs", "--env", "K=V", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "."); code != 0 {
		t.Fatalf("add: %s", e)
	}
	if _, e, code := run("mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp", "--header", "Authorization: Bearer ${TOKEN}", "--scope", "project"); code != 0 {
		t.Fatalf("add --url: %s", e)
	}
	var user, proj struct {
		Servers map[string]map[string]any `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(home, "mcp.json"))
	json.Unmarshal(b, &user)
	b, _ = os.ReadFile(filepath.Join(dir, ".mcp.json"))
	json.Unmarshal(b, &proj)
	if user.Servers["fs"]["command"] != "npx" || user.Servers["fs"]["env"].(map[string]any)["K"] != "V" {
		t.Errorf("user file %s", b)
	}
	if proj.Servers["web"]["url"] != "http://127.0.0.1:1/mcp" || proj.Servers["web"]["type"] != "http" {
		t.Errorf("project file %s", b)
	}
	// A project file Pilot itself created is trusted.
	if out, _, _ := run("mcp", "trust"); !strings.Contains(out, "already trusted") {
		t.Errorf("trust after add: %s", out)
	}
	if out, _, _ := run("mcp", "get", "web"); !strings.Contains(out, "scope: project") || !strings.Contains(out, "Authorization: Bearer ${TOKEN}") {
		t.Errorf("get:\n%s", out)
	}
	if _, e, code := run("mcp", "add", "bad name", "--", "x"); code == 0 || !strings.Contains(e, "server name") {
		t.Errorf("bad name accepted: %s", e)
	}
	if _, _, code := run("mcp", "add", "x"); code == 0 {
		t.Errorf("add without a command or url succeeded")
	}
	if _, _, code := run("mcp", "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand exit %d", code)
	}
	if _, e, code := run("mcp", "remove", "fs"); code != 0 {
		t.Fatalf("remove: %s", e)
	}
	if _, _, code := run("mcp", "remove", "fs"); code == 0 {
		t.Errorf("removing a missing server succeeded")
	}
	if out, _, _ := run("mcp", "list"); strings.Contains(out, "fs\t") || !strings.Contains(out, "web\tproject") {
		t.Errorf("list:\n%s", out)
	}
}
