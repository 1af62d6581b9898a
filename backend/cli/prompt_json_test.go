package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// jsonLineKinds decodes a --json line of each "type" strictly into its
// struct of backend/wire/cli.go.
var jsonLineKinds = map[string]func(*testing.T, string) any{
	"text":        func(t *testing.T, l string) any { return decodeStrict[wire.TextLine](t, l) },
	"usage":       func(t *testing.T, l string) any { return decodeStrict[wire.UsageLine](t, l) },
	"notice":      func(t *testing.T, l string) any { return decodeStrict[wire.NoticeLine](t, l) },
	"error":       func(t *testing.T, l string) any { return decodeStrict[wire.ErrorLine](t, l) },
	"done":        func(t *testing.T, l string) any { return decodeStrict[wire.DoneLine](t, l) },
	"tool_call":   func(t *testing.T, l string) any { return decodeStrict[wire.ToolCallLine](t, l) },
	"tool_result": func(t *testing.T, l string) any { return decodeStrict[wire.ToolResultLine](t, l) },
	"approval":    func(t *testing.T, l string) any { return decodeStrict[wire.ApprovalLine](t, l) },
	"todos":       func(t *testing.T, l string) any { return decodeStrict[wire.TodosLine](t, l) },
}

// Every --json line decodes strictly into its struct: no field it does
// not declare, none it always writes missing.
func TestPromptJSONFields(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "t", Name: "todo_write", Input: []byte(`{"todos":[{"content":"Mark it","status":"in_progress"}]}`)}}},
		{ToolCalls: []fakellm.ToolCall{{ID: "p", Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)}}},
		{Text: "Could not."},
	}})
	defer srv.Close()
	dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n"})
	r := runCLI(t, fakeEnv(t, srv, "anthropic"), "", "-p", "Mark it", "--project", dir, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	seen := map[string]bool{}
	for line := range strings.Lines(r.stdout) {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(line), &head); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		seen[head.Type] = true
		decode, ok := jsonLineKinds[head.Type]
		if !ok {
			t.Errorf("undocumented line type %q: %s", head.Type, line)
			continue
		}
		decode(t, line)
	}
	for _, ty := range []string{"text", "usage", "done", "tool_call", "tool_result", "approval", "todos"} {
		if !seen[ty] {
			t.Errorf("no %s line in\n%s", ty, r.stdout)
		}
	}
}
