package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// pilot -p with a scripted model that hands a task to the project's
// custom agent fixer (.claude/agents/fixer.md, tools Read and Write): its
// write is the session's own change, nested under the task. Without a
// terminal, --approve ask denies it and nothing is written; with
// --approve edits it lands, with its change summary from the ledger.
func TestHeadlessCustomAgent(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"ask", "edits"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			agent := func(r fakellm.Request) bool {
				return strings.Contains(r.System, "You are fixer, a custom agent of Pilot")
			}
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{Match: func(r fakellm.Request) bool { return !agent(r) && len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{
					{ID: "t1", Name: "task", Input: []byte(`{"description":"fix the file","prompt":"create fixed.txt","subagent_type":"fixer"}`)},
				}},
				{Match: func(r fakellm.Request) bool { return agent(r) && len(r.ToolResults) == 0 }, ToolCalls: []fakellm.ToolCall{
					{ID: "w", Name: "write_file", Input: []byte(`{"path":"fixed.txt","content":"fixed\n"}`)},
				}},
				{Match: agent, Text: "The fixer is done."},
				{Text: "All done."},
			}})
			defer srv.Close()
			dir := tempProject(t, nil)
			if err := os.MkdirAll(filepath.Join(dir, ".claude", "agents"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".claude", "agents", "fixer.md"),
				[]byte("---\nname: fixer\ndescription: Fixes files.\ntools: Read, Write\n---\nYou fix files.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := command(t, srv, t.TempDir(), "-p", "Fix it", "--project", dir, "--approve", mode, "--json")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var nested, result map[string]any
			sc := bufio.NewScanner(&stdout)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var line map[string]any
				if json.Unmarshal(sc.Bytes(), &line) != nil {
					t.Fatalf("not JSON: %s", sc.Text())
				}
				switch {
				case line["type"] == "tool_call" && line["id"] == "t1/1":
					nested = line
				case line["type"] == "tool_result" && line["id"] == "t1/1":
					result = line
				}
			}
			if nested == nil || nested["parentId"] != "t1" || nested["name"] != "write_file" {
				t.Fatalf("no nested write under t1: %v\n%s", nested, stdout.String())
			}
			b, err := os.ReadFile(filepath.Join(dir, "fixed.txt"))
			if mode == "ask" {
				if err == nil || result["status"] != "rejected" {
					t.Fatalf("denied without a terminal, yet the file is %q (result %v)", b, result)
				}
				return
			}
			if err != nil || string(b) != "fixed\n" || result["status"] != "done" || result["change"] == nil {
				t.Fatalf("file %q (%v), result %v", b, err, result)
			}
		})
	}
}
