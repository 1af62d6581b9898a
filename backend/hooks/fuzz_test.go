package hooks

import (
	"encoding/json"
	"slices"
	"testing"

	"pilot/backend/wire"
)

// What a hook prints is its author's: any bytes on stdout must give a
// decision of the closed set, and a block always a reason.
func FuzzParseOutput(f *testing.F) {
	for _, s := range []string{"", "ok", "{}", `{"decision":"block"}`, `{"continue":false}`, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
		`{"hookSpecificOutput":{"permissionDecision":"maybe"}}`, `{"decision":"approve","reason":"x"}`, `{"hookSpecificOutput":{"additionalContext":"c"}}`, "{", `[1,2]`} {
		for _, e := range Events {
			f.Add(string(e), s)
		}
	}
	valid := []wire.HookDecision{wire.HookAllow, wire.HookDeny, wire.HookAsk, wire.HookNone, wire.HookError}
	f.Fuzz(func(t *testing.T, event, stdout string) {
		var o outcome
		o.parse(Event(event), "hook", stdout)
		if !slices.Contains(valid, o.run.Decision) {
			t.Fatalf("decision %q", o.run.Decision)
		}
		if o.block && o.reason == "" {
			t.Fatal("a block without a reason")
		}
		if o.halt && o.stopReason == "" {
			t.Fatal("a stop without a reason")
		}
	})
}

// Any input the model sends maps to calls whose inputs are JSON.
func FuzzCalls(f *testing.F) {
	for _, tool := range []string{"run_bash", "write_file", "patch_file", "multi_patch", "read_file", "list_files", "glob", "grep", "todo_write", "job_output", "job_stop", "skill", "web_fetch", "mcp__s__t"} {
		f.Add(tool, `{}`)
		f.Add(tool, `{"path":"a","edits":[{"path":"b"}],"todos":[{"status":"done"}],"start_line":5,"end_line":2}`)
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		if tool == "" || !json.Valid([]byte(input)) {
			return // the loop never runs a call without a name or whose input is not JSON
		}
		calls := Calls(tool, json.RawMessage(input), "/root")
		if len(calls) == 0 {
			t.Fatal("no call")
		}
		for _, c := range calls {
			if c.Name == "" || !json.Valid(c.Input) {
				t.Fatalf("%s %q -> %s %q", tool, input, c.Name, c.Input)
			}
		}
	})
}
