package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
)

// TestServerWindowKeepsTheConversation: a session on a model the table
// does not know, whose server (OpenRouter's model list) gives it a 1M
// window, keeps a 40k-token tool result whole in its next request: it is
// not taken for a 32k model and compacted or cut at about 26k tokens. The
// same run without the server's figure shows what the guess did; with the
// user's override in settings.json, the override's window and prices hold
// (the session has a cost).
func TestServerWindowKeepsTheConversation(t *testing.T) {
	t.Parallel()
	const model = "moonshotai/kimi-k2-0905"
	var big strings.Builder
	for i := range 1800 {
		fmt.Fprintf(&big, "line %04d: the quick brown fox jumps over the lazy dog, again and again and again\n", i)
	}
	last := "line 1799:"
	for _, c := range []struct {
		name     string
		lengths  map[string]int
		override string
		whole    bool
	}{
		{"the server's 1M window", map[string]int{model: 1_000_000}, "", true},
		{"a guessed 32k window", nil, "", false},
		{"the user's override", map[string]int{model: 32_000}, `,"models":{"` + model + `":{"window":500000,"prices":{"input":1,"output":4}}}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Models: []string{model}, ContextLengths: c.lengths, Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{{Name: "read_file", Input: []byte(`{"path":"big.txt","start_line":1,"end_line":1800}`)}}, When: &fakellm.When{LastUserContains: "Summarise"}},
				{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
				{Text: "Summary.", Repeat: true},
			}})
			defer srv.Close()
			home := t.TempDir()
			settings := fmt.Sprintf(`{"baseUrls":{"openrouter":%q}%s}`, srv.OpenAIBaseURL(), c.override)
			if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := tempProject(t, map[string]string{"big.txt": big.String()})
			cmd := command(t, srv, home, "-p", "Summarise big.txt", "--project", dir, "--model", model, "--approve", "all")
			cmd.Env = append(cmd.Env, "PILOT_PROVIDER=openrouter", "OPENROUTER_API_KEY=sk-or-test")
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
			whole := strings.Contains(result, last) && !strings.Contains(stderr.String(), "compact")
			if whole != c.whole {
				t.Errorf("the tool result reached the model whole: %v, want %v (%d bytes)\nstderr: %s", whole, c.whole, len(result), stderr.String())
			}
			list, err := command(t, srv, home, "sessions", "list", "--project", dir, "--json").Output()
			if err != nil {
				t.Fatal(err)
			}
			priced := !strings.Contains(string(list), `"costUsd":0,`)
			if priced != (c.override != "") {
				t.Errorf("the session has a cost: %v, want %v (only the override gives prices): %s", priced, c.override != "", list)
			}
		})
	}
}
