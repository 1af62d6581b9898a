package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/llm/fakellm"
)

// Headless, without a terminal: a command asking to run outside the
// sandbox (sandbox: false) is refused with a sentence under edits and
// ask, where no one can say yes, and runs under all, as before the
// sandbox. Without a reason it is refused in every mode.
func TestHeadlessOutsideSandbox(t *testing.T) {
	t.Parallel()
	pilotBinary(t)
	cases := []struct {
		mode, input string
		runs        bool
		says        string
	}{
		{"edits", `{"command":"touch OUT","sandbox":false,"reason":"It must write outside the project."}`, false, "did not let this command run outside the sandbox"},
		{"ask", `{"command":"touch OUT","sandbox":false,"reason":"It must write outside the project."}`, false, "did not let this command run outside the sandbox"},
		{"all", `{"command":"touch OUT","sandbox":false,"reason":"It must write outside the project."}`, true, "[exit code 0]"},
		{"all", `{"command":"touch OUT","sandbox":false}`, false, "sandbox: false needs a reason"},
	}
	for _, c := range cases {
		t.Run(c.mode+"/"+c.says, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{ID: "c1", Name: "run_bash", Input: []byte(c.input)}}, When: &fakellm.When{LastUserContains: "Go"}},
				{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			home, dir := t.TempDir(), t.TempDir()
			cmd := command(t, srv, home, "-p", "Go", "--project", dir, "--approve", c.mode)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var result string
			for _, r := range srv.Requests() {
				for _, tr := range r.ToolResults {
					result = tr.Content
				}
			}
			if !strings.Contains(result, c.says) {
				t.Errorf("the model was told %q, want it to say %q", result, c.says)
			}
			if !c.runs && c.says != "sandbox: false needs a reason" && !strings.Contains(result, "nobody is at a terminal") {
				t.Errorf("the refusal does not say why no one could answer: %q", result)
			}
			_, err := os.Stat(filepath.Join(dir, "OUT"))
			if ran := err == nil; ran != c.runs {
				t.Errorf("ran %v, want %v; result %q", ran, c.runs, result)
			}
		})
	}
}
