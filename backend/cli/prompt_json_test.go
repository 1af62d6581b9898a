package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// jsonFields is the documented shape of each --json line (README, "The
// --json lines"): the fields always present, then those that may be.
var jsonFields = map[string][2][]string{
	"text":        {{"type", "text"}},
	"usage":       {{"type", "usage"}},
	"notice":      {{"type", "kind", "text"}},
	"error":       {{"type", "kind", "message"}},
	"done":        {{"type", "reason", "sessionId"}},
	"tool_call":   {{"type", "id", "name", "label", "input"}, {"parentId"}},
	"tool_result": {{"type", "id", "name", "status", "isError", "output"}, {"change", "effects"}},
	"approval":    {{"type", "id", "kind", "tool", "paths", "command", "server", "mcpTool", "arguments", "host", "alwaysRules", "decision"}},
	"todos":       {{"type", "todos"}},
}

// Every --json line has exactly its documented fields.
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
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		var ty string
		json.Unmarshal(v["type"], &ty)
		seen[ty] = true
		f, ok := jsonFields[ty]
		if !ok {
			t.Errorf("undocumented line type %q: %s", ty, line)
			continue
		}
		for _, k := range f[0] {
			if _, ok := v[k]; !ok {
				t.Errorf("%s line without %q: %s", ty, k, line)
			}
		}
		for k := range v {
			if !slices.Contains(f[0], k) && !slices.Contains(f[1], k) {
				t.Errorf("%s line with an undocumented field %q: %s", ty, k, line)
			}
		}
	}
	for _, ty := range []string{"text", "usage", "done", "tool_call", "tool_result", "approval", "todos"} {
		if !seen[ty] {
			t.Errorf("no %s line in\n%s", ty, r.stdout)
		}
	}
}
