package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/internal/fakellm"
	"pilot/backend/internal/mcptest"
)

// TestMCPSignInThroughTheBinary: a real OAuth flow on loopback, through
// the real binary. A hosted server that needs a sign-in makes `pilot -p`
// say so in one sentence naming the command, with nothing fetched from
// its authorization server; `pilot mcp login --no-browser` prints the
// authorization page and takes the pasted redirect (and without the
// flag opens $BROWSER, here a script standing in for one); the tool call then
// works, and again after the server stops accepting the token (a
// refresh). The tokens are nowhere but mcp-tokens.json: not in any other
// file under PILOT_HOME (the database, the logs), not in what pilot
// printed, not in the session's export, not in an MCP child's environment.
func TestMCPSignInThroughTheBinary(t *testing.T) {
	t.Parallel()
	o := mcptest.NewOAuth()
	defer o.Close()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			{ID: "echo", Name: "mcp__hosted__echo", Input: []byte(`{"text":"hi"}`)},
			{ID: "env", Name: "mcp__local__env", Input: []byte(`{}`)},
		}, Repeat: true, When: &fakellm.When{LastUserContains: "Echo"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()
	exe, args, err := mcptest.Command()
	if err != nil {
		t.Fatal(err)
	}
	local, _ := json.Marshal(map[string]any{"command": exe, "args": args, "env": map[string]string{"PILOT_MCP_TEST_SERVER": "1"}})
	if err := os.WriteFile(filepath.Join(home, "mcp.json"), []byte(`{"mcpServers": {"hosted": {"type": "http", "url": "`+o.MCPURL()+`"}, "local": `+string(local)+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var printed bytes.Buffer
	run := func(stdin io.Reader, args ...string) (string, string, error) {
		cmd := command(t, srv, home, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
		err := cmd.Run()
		printed.Write(stdout.Bytes())
		printed.Write(stderr.Bytes())
		return stdout.String(), stderr.String(), err
	}
	if _, stderr, err := run(nil, "rules", "add", "allow", "network", "127.0.0.1", "--project", dir); err != nil {
		t.Fatalf("rules add: %v\n%s", err, stderr)
	}

	// Before the sign-in: one sentence naming the command; nothing asked
	// of the authorization server.
	_, stderr, err := run(nil, "-p", "Echo hi", "--project", dir, "--approve", "all")
	if err != nil || !strings.Contains(stderr, "the MCP server hosted needs a sign-in: run `pilot mcp login hosted --project "+dir+"`") {
		t.Fatalf("before the sign-in: %v\n%s", err, stderr)
	}
	if logins, refreshes := o.Counts(); logins+refreshes != 0 {
		t.Fatal("the authorization server was used before the user asked to sign in")
	}
	if out, _, _ := run(nil, "mcp", "list", "--project", dir); !strings.Contains(out, "hosted\tuser\tfailed\thttp "+o.MCPURL()+"\tneeds sign-in") {
		t.Fatalf("mcp list before the sign-in:\n%s", out)
	}

	// The sign-in, pasted.
	login := command(t, srv, home, "mcp", "login", "hosted", "--no-browser", "--project", dir)
	stdin, _ := login.StdinPipe()
	stdout, _ := login.StdoutPipe()
	var loginErr bytes.Buffer
	login.Stderr = &loginErr
	if err := login.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	var authURL string
	var out strings.Builder
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if u := strings.TrimSpace(lines.Text()); strings.HasPrefix(u, o.URL+"/authorize?") {
			authURL = u
		}
		if strings.HasPrefix(lines.Text(), "Then paste here") {
			break
		}
	}
	if authURL == "" {
		t.Fatalf("no authorization address printed:\n%s%s", out.String(), loginErr.String())
	}
	back, err := mcptest.SentBack(authURL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(stdin, back+"\n"); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	out.Write(rest)
	if err := login.Wait(); err != nil || !strings.Contains(out.String(), "Signed in to hosted: signed in (renews ") {
		t.Fatalf("login: %v\n%s%s", err, out.String(), loginErr.String())
	}
	printed.WriteString(out.String() + loginErr.String())
	kept, _ := config.LoadMCPTokens(home)
	pasted := kept["user "+o.MCPURL()]
	// Signing in again through $BROWSER, which a test stands in for.
	browser := filepath.Join(t.TempDir(), "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nPILOT_MCP_TEST_BROWSER=1 exec '"+exe+"' -test.run='^$' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	again := command(t, srv, home, "mcp", "login", "hosted", "--project", dir)
	again.Env = append(again.Env, "BROWSER="+browser)
	if out, err := again.CombinedOutput(); err != nil || !strings.Contains(string(out), "Signed in to hosted: signed in (renews ") {
		t.Fatalf("login through $BROWSER: %v\n%s", err, out)
	} else {
		printed.Write(out)
	}
	if logins, _ := o.Counts(); logins != 2 {
		t.Fatalf("%d sign-ins, want 2", logins)
	}
	if out, _, _ := run(nil, "mcp", "list", "--project", dir); !strings.Contains(out, "hosted\tuser\tready\thttp "+o.MCPURL()+"\t(9 tools)\tsigned in (renews ") {
		t.Fatalf("mcp list after the sign-in:\n%s", out)
	}

	// The call works, and after the token stops working, with a refresh.
	call := func(what string) {
		before := len(srv.Requests())
		if _, stderr, err := run(nil, "-p", "Echo hi", "--project", dir, "--approve", "all"); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, stderr)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) < 2 || len(reqs[1].ToolResults) != 2 || reqs[1].ToolResults[0].Content != "echo: hi" {
			t.Fatalf("%s: %+v", what, reqs)
		}
	}
	call("after the sign-in")
	kept, _ = config.LoadMCPTokens(home)
	first := kept["user "+o.MCPURL()]
	o.Expire()
	call("after the token expired")
	if logins, refreshes := o.Counts(); logins != 2 || refreshes != 1 {
		t.Errorf("%d sign-ins, %d refreshes; want 2 and 1", logins, refreshes)
	}
	kept, _ = config.LoadMCPTokens(home)
	now := kept["user "+o.MCPURL()]
	if now.AccessToken == first.AccessToken || now.RefreshToken == first.RefreshToken {
		t.Fatal("the refreshed tokens were not kept")
	}

	// The tokens are in mcp-tokens.json alone.
	list, _, _ := run(nil, "sessions", "list", "--project", dir, "--json")
	var s struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(list, "\n", 2)[0]), &s); err != nil {
		t.Fatalf("sessions list: %v\n%s", err, list)
	}
	export, _, _ := run(nil, "sessions", "export", strconv.FormatInt(s.ID, 10), "--format", "json")
	if !strings.Contains(export, "echo: hi") || !strings.Contains(export, "PILOT_MCP_TEST_SERVER") {
		t.Fatalf("the export has not the calls' results:\n%.2000s", export)
	}
	secrets := []string{pasted.AccessToken, pasted.RefreshToken, first.AccessToken, first.RefreshToken, now.AccessToken, now.RefreshToken}
	found := func(where, text string) {
		for _, sec := range secrets {
			if strings.Contains(text, sec) {
				t.Errorf("a token is in %s", where)
			}
		}
	}
	if !strings.Contains(printed.String(), "/proc/self/environ: ") {
		t.Fatal("the MCP child's /proc/PID/environ was not read")
	}
	found("what pilot printed", printed.String()) // the export and the MCP child's environment (the env tool's result: os.Environ and /proc/PID/environ) among it
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != config.MCPTokensFile {
			b, _ := os.ReadFile(p)
			found(p, string(b))
		}
		return nil
	})
	if logs, _ := filepath.Glob(filepath.Join(home, "logs", "*")); len(logs) == 0 {
		t.Error("no log was written, so none was checked")
	}
}
