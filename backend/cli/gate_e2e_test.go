package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/sandbox"

	"pilot/backend/internal/fakellm"
	"pilot/backend/paths"
	"pilot/backend/store"
)

// hiddenCode is a command that hides code behind allowed words; mark is the
// file it creates if that code runs (relative to the project; "../" is
// outside it).
type hiddenCode struct {
	command string
	mark    string
	// parser: the character-splitting matcher before the shell parser
	// let this one through an allow rule (kept to say which cases the
	// parse of the command tree fixed).
	parser bool
}

var hiddenCodes = []hiddenCode{
	{"cat a.txt <(touch M1)", "M1", true},
	{"cat <(touch M2)", "M2", true},
	{"echo x | cat - <(touch M3)", "M3", true},
	{"echo x > ../OUT4", "../OUT4", true},
	{"cat a.txt 2>M5", "M5", true},
	{"ls > M6", "M6", true},
	{"ls; touch M7", "M7", false},
	{"cat $(touch M8)", "M8", false},
	{"cat a.txt `touch M9`", "M9", false},
	{"eval 'touch M10'", "M10", false},
	{"sh -c 'touch M11'", "M11", false},
	{"echo x && touch M12", "M12", false},
	{"cat a.txt | tee M13", "M13", false},
	{"echo $(touch M14)", "M14", false},
	{"cat a.txt & touch M15", "M15", false},
	{"echo x; (touch M16)", "M16", false},
	{"cat a.txt\ntouch M17", "M17", false},
	{"echo ${x:-$(touch M18)}", "M18", false},
	{"ls /nonexistent || bash -c 'touch M19'", "M19", false},
	{"cat a.txt; xargs touch M20 < /dev/null", "M20", false},
}

// 0 commands run without approval through allow rules: the production
// binary, with a project allowing `cat *`, `echo *` and `ls *`, gets
// commands that hide other code behind those words, under every mode.
// Nothing runs but what a rule allows (the control: `cat a.txt` runs by
// its rule under ask and edits), except under all, which runs everything
// by design (there every hidden command does create its mark: the
// commands are real attempts). Where the OS sandbox can start, edits and
// all run every command confined without asking: the marks inside the
// project are made and the one outside it is blocked.
func TestAllowRulesRunNoHiddenCode(t *testing.T) {
	t.Parallel()
	pilotBinary(t)
	var calls []fakellm.ToolCall
	for i, h := range hiddenCodes {
		in, _ := json.Marshal(map[string]any{"command": h.command, "timeout_seconds": 10})
		calls = append(calls, fakellm.ToolCall{ID: fmt.Sprintf("h%d", i), Name: "run_bash", Input: in})
	}
	calls = append(calls, fakellm.ToolCall{ID: "control", Name: "run_bash", Input: []byte(`{"command":"cat a.txt"}`)})
	sandboxed := sandbox.Probe().Ready
	for _, mode := range []string{"none", "ask", "edits", "plan", "all"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: calls, When: &fakellm.When{LastUserContains: "Look"}},
				{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
			}})
			defer srv.Close()
			home, base := t.TempDir(), t.TempDir()
			dir := filepath.Join(base, "project")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A-CONTENT\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			addRules(t, home, dir, [3]string{"allow", "run_bash", "cat *"}, [3]string{"allow", "run_bash", "echo *"}, [3]string{"allow", "run_bash", "ls *"})
			cmd := command(t, srv, home, "-p", "Look at a.txt", "--project", dir, "--approve", mode)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			results := map[string]fakellm.ToolResult{}
			for _, r := range srv.Requests() {
				for _, tr := range r.ToolResults {
					results[tr.ToolUseID] = tr
				}
			}
			if len(results) != len(calls) {
				t.Fatalf("%d results for %d calls\n%s", len(results), len(calls), stderr.String())
			}
			if got := results["control"]; (mode == "ask" || mode == "edits") && !strings.Contains(got.Content, "A-CONTENT") {
				t.Errorf("the control `cat a.txt` did not run by its rule: %+v", got)
			}
			for i, h := range hiddenCodes {
				_, err := os.Stat(filepath.Join(dir, h.mark))
				created := err == nil
				inside := !strings.HasPrefix(h.mark, "../")
				switch {
				case (mode == "edits" || mode == "all") && sandboxed && inside:
					if !created {
						t.Errorf("%q under %s: %s was not created in the sandbox: %s", h.command, mode, h.mark, results[fmt.Sprintf("h%d", i)].Content)
					}
				case (mode == "edits" || mode == "all") && sandboxed:
					if created || !strings.Contains(results[fmt.Sprintf("h%d", i)].Content, "sandbox") {
						t.Errorf("%q under %s: %s outside the project created %v, or the sandbox's block not told: %s", h.command, mode, h.mark, created, results[fmt.Sprintf("h%d", i)].Content)
					}
				case mode == "all":
					if !created {
						t.Errorf("%q under all: %s was not created (the command is not a real attempt?): %s", h.command, h.mark, results[fmt.Sprintf("h%d", i)].Content)
					}
				case created:
					t.Errorf("%q under %s created %s: hidden code ran without approval (parser case: %v); result: %s", h.command, mode, h.mark, h.parser, results[fmt.Sprintf("h%d", i)].Content)
				}
			}
		})
	}
}

// addRules stores rules (effect, tool, pattern) for the project at dir in
// the database the binary opens under home.
func addRules(t *testing.T, home, dir string, rules ...[3]string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, paths.DB(home))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Projects.Touch(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if _, err := st.Rules.Add(ctx, store.Rule{ProjectID: p.ID, Tool: r[1], Pattern: r[2], Effect: store.Effect(r[0])}); err != nil {
			t.Fatal(err)
		}
	}
}
