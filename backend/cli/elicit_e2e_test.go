package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// `pilot -p` answers an MCP server's request for input by --elicit: the
// model calls a tool of the SDK-built test server (mcptest) that elicits
// a form and echoes the answer, and the answer reaches the model as the
// tool's result; stderr says what was answered, and the session's export
// keeps the form with its answer.
func TestHeadlessElicitation(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "form", Name: "mcp__t__ask", Input: []byte(`{}`)}}, Repeat: true, When: &fakellm.When{LastUserContains: "ask me"}},
		{ToolCalls: []fakellm.ToolCall{{ID: "form", Name: "mcp__t__ask_defaults", Input: []byte(`{}`)}}, Repeat: true, When: &fakellm.When{LastUserContains: "defaults"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	t.Cleanup(srv.Close)
	cases := []struct {
		name, prompt string
		flags        []string
		result       string // the tool's result the model reads
		stderr       string
		action       string // kept with the call
	}{
		{"decline by default", "ask me", nil, "elicited: decline null",
			`pilot: declined the MCP server "t"'s request for input: a run without the window declines them; --elicit=defaults accepts a form's default values.`, "decline"},
		{"defaults", "use the defaults", []string{"--elicit=defaults"}, `elicited: accept {"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`,
			`pilot: answered the MCP server "t"'s request for input with its form's default values (--elicit=defaults).`, "accept"},
		{"defaults without one for a required field", "ask me", []string{"--elicit", "defaults"}, "elicited: decline null",
			`--elicit=defaults cannot answer it, its required fields name, email have no default.`, "decline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			dir := tempProject(t, map[string]string{"a.txt": "a\n"})
			mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"t": map[string]any{
				"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{"PILOT_MCP_TEST_SERVER": "1", "PILOT_MCP_TEST_PROTOCOL": "2025-11-25"},
			}}})
			if err := os.WriteFile(filepath.Join(home, "mcp.json"), mcpJSON, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := command(t, srv, home, append([]string{"-p", c.prompt, "--project", dir, "--approve", "all"}, c.flags...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), c.stderr)
			}
			if !sawRequest(srv, func(r fakellm.Request) bool {
				return len(r.ToolResults) == 1 && r.ToolResults[0].Content == c.result
			})() {
				t.Errorf("the model never read %q", c.result)
			}
			out, err := command(t, srv, home, "sessions", "export", "1", "--format", "json", "--project", dir).Output()
			if err != nil {
				t.Fatalf("export: %v", err)
			}
			var x struct {
				Messages []struct {
					ToolCalls []struct {
						Elicitations []struct {
							Server, Action, Why string
						} `json:"elicitations"`
					} `json:"toolCalls"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(out, &x); err != nil {
				t.Fatalf("export %v: %s", err, out)
			}
			var kept []string
			for _, m := range x.Messages {
				for _, tc := range m.ToolCalls {
					for _, e := range tc.Elicitations {
						kept = append(kept, e.Server+" "+e.Action)
						if e.Why == "" {
							t.Errorf("no one was asked, and the record does not say why: %+v", e)
						}
					}
				}
			}
			if len(kept) != 1 || kept[0] != "t "+c.action {
				t.Errorf("kept %v, want t %s", kept, c.action)
			}
		})
	}
}
