package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestHeadlessCommandTellsAll (issue 36, finding 1: the card of a command
// that wrote .git/config and .git/hooks/* listed no changed file): a
// sandboxed command under pilot -p --approve edits makes a repository
// with a hook, an executable script, Claude Code's settings, an MCP
// config, a direnv file, an npm program and an ignored log. The model's
// result names every file that can run code and what cannot be undone;
// pilot -p's lines mark them; pilot sessions changes (text and --json,
// read from the store by another process) lists every file the command
// changed with the same marks.
func TestHeadlessCommandTellsAll(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const plant = `mkdir sub && cd sub && git init -q && printf '#!/bin/sh\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout; cd .. ; ` +
		`printf x > run.sh; chmod +x run.sh; mkdir -p .claude node_modules/.bin && echo '{}' > .claude/settings.json && echo '{}' > .mcp.json && ` +
		`echo 'echo hi' > .envrc && printf y > node_modules/.bin/tool && chmod +x node_modules/.bin/tool && echo junk > build.log && echo B > a.txt`
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{bashCall("plant", plant)}, When: &fakellm.When{LastUserContains: "Set"}},
		{Text: "Done.", Repeat: true, When: &fakellm.When{HasToolResult: true}},
	}})
	defer srv.Close()
	home := sandboxHome(t)
	dir := tempProject(t, map[string]string{".gitignore": "*.log\nnode_modules/\n", "a.txt": "A\n"})
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := command(t, srv, home, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("pilot %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	_, lines := run("-p", "Set the project up", "--project", dir, "--approve", "edits")
	if _, err := os.Stat(filepath.Join(dir, "sub", ".git", "hooks", "post-checkout")); err != nil {
		t.Fatalf("the command did not make the hook (%v):\n%s", err, lines)
	}

	// The model's result: one sentence naming what can run code.
	var result string
	for _, r := range srv.Requests() {
		for _, tr := range r.ToolResults {
			if tr.ToolUseID == "plant" {
				result = tr.Content
			}
		}
	}
	told := result[strings.LastIndex(result, "\n")+1:]
	for _, want := range []string{
		"This command changed files that can run code: ",
		"sub/.git/hooks/post-checkout (a git hook; not kept, cannot be undone)",
		"sub/.git/config (git config: it can name commands git runs; not kept, cannot be undone)",
		"sub/.git (a new git repository",
		"run.sh (executable)",
		".claude/settings.json (Claude Code or Pilot settings",
		".mcp.json (MCP servers",
		".envrc (direnv",
		"node_modules/.bin/tool (an npm program: npm scripts and npx run it; not kept, cannot be undone)",
	} {
		if !strings.Contains(told, want) {
			t.Errorf("the model's result lacks %q; it ends:\n%s", want, told)
		}
	}
	for _, not := range []string{"build.log", "a.txt", "HEAD"} {
		if strings.Contains(told, not) {
			t.Errorf("the model's result names %s, which cannot run code:\n%s", not, told)
		}
	}

	// pilot -p's lines.
	for _, want := range []string{
		"  created sub/.git/hooks/post-checkout  [can run code: a git hook] [not kept, cannot be undone]",
		"  created sub/.git/  [can run code: a new git repository: git runs its hooks and config here] [not kept, cannot be undone]",
		"  created run.sh  [can run code: executable]\n",
		"  created build.log [not kept, cannot be undone]\n",
		"  modified a.txt\n",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("pilot -p's lines lack %q:\n%s", want, lines)
		}
	}

	list, _ := run("sessions", "list", "--project", dir, "--json")
	ss := decodeLines[wire.SessionRecord](t, list)
	if len(ss) != 1 {
		t.Fatalf("sessions list: %s", list)
	}
	id := fmt.Sprint(ss[0].ID)
	type mark struct {
		kept, listed bool
		runs         string // a word of why it can run code; "" when it cannot
	}
	want := map[string]mark{
		"sub/.git":                     {false, true, "repository"},
		"sub/.git/hooks/post-checkout": {false, true, "git hook"},
		"sub/.git/config":              {false, true, "git config"},
		"sub/.git/HEAD":                {false, true, ""},
		"run.sh":                       {true, false, "executable"},
		".claude/settings.json":        {true, false, "Claude Code"},
		".mcp.json":                    {true, false, "MCP"},
		".envrc":                       {true, false, "direnv"},
		"node_modules/.bin/tool":       {false, true, "npm"},
		"build.log":                    {false, true, ""},
		"a.txt":                        {true, false, ""},
	}
	check := func(where string, files []wire.FileEffect) {
		t.Helper()
		got := map[string]wire.FileEffect{}
		for _, f := range files {
			got[f.Path] = f
		}
		for p, w := range want {
			f, ok := got[p]
			if !ok || f.Kept != w.kept || f.Listed != w.listed || (f.RunsCode == "") != (w.runs == "") || !strings.Contains(f.RunsCode, w.runs) {
				t.Errorf("%s: %s is %+v (listed: %v), want kept %v, listed %v, runs code %q", where, p, f, ok, w.kept, w.listed, w.runs)
			}
		}
	}

	js, _ := run("sessions", "changes", id, "--json")
	lv := decodeStrict[wire.Ledger](t, js)
	if len(lv.Checkpoints) != 1 || lv.Checkpoints[0].Kind != wire.CheckpointKind("command") {
		t.Fatalf("sessions changes --json: %s", js)
	}
	check("sessions changes --json", lv.Checkpoints[0].Files)
	for _, f := range lv.Files {
		w, ok := want[f.Path]
		if ok && (f.Listed != w.listed || f.Revertable == w.listed || (f.RunsCode == "") != (w.runs == "")) {
			t.Errorf("sessions changes --json, net effect: %+v, want %+v", f, w)
		}
	}
	text, _ := run("sessions", "changes", id)
	for _, w := range []string{
		"created  sub/.git/hooks/post-checkout  [can run code: a git hook]  [not revertable: in a git folder: not kept]",
		"created  run.sh  [can run code: executable]\n",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("sessions changes lacks %q:\n%s", w, text)
		}
	}

}
