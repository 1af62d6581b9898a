package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestRemember: remember proposes the user's own instruction file with
// the line added, as a change reviewed hunk by hunk and asked in every
// mode but all (edits mode covers the project only); nothing is written
// before the yes, a no writes nothing, a file edited meanwhile is not
// overwritten, and the result says the project's rewind does not cover it.
func TestRemember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		mode    string
		before  string // ~/.claude/CLAUDE.md ("": none)
		approve bool
		edit    bool // the file is edited while the change is reviewed
		asked   bool
		want    string // the file after ("": none)
		result  string
	}{
		{name: "approved, new file", mode: "edits", approve: true, asked: true,
			want: "- Answer in British English.\n", result: "Written to ~/.claude/CLAUDE.md"},
		{name: "approved, after the user's list", before: "# Mine\n\n- Be brief.\n", approve: true, asked: true,
			want: "# Mine\n\n- Be brief.\n- Answer in British English.\n", result: "rewind do not undo it"},
		{name: "rejected", before: "# Mine\n", asked: true, want: "# Mine\n", result: "Nothing was written."},
		{name: "edited meanwhile", before: "# Mine\n", approve: true, edit: true, asked: true,
			want: "# Mine\n- mine, typed meanwhile\n", result: "changed while the line was reviewed"},
		{name: "mode all", mode: "all", want: "- Answer in British English.\n", result: "Written to ~/.claude/CLAUDE.md"},
		{name: "plan mode", mode: "plan", result: "plan mode"},
		{name: "already there", before: "- Answer in British English.\n", want: "- Answer in British English.\n", result: "already has this line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			file := filepath.Join(home, ".claude", "CLAUDE.md")
			if tc.before != "" {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(tc.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("r1", "remember", `{"text":"Answer in British English."}`)}},
				{Text: "Noted."},
			}}, setup{mode: tc.mode, files: map[string]string{"main.go": "package main\n"}, opt: Options{Sandbox: Sandbox{Home: home}}})
			asked := false
			h.approveWith(func(a wire.Approval) {
				asked = true
				v, err := h.m.Approvals().Change(a.ID)
				if err != nil || len(v.Files) != 1 || v.Files[0].Path != "~/.claude/CLAUDE.md" || a.NoAlways == "" {
					t.Errorf("the question: %+v %+v %v", a, v, err)
				}
				if _, err := os.Stat(file); tc.before == "" && err == nil {
					t.Error("written before the yes")
				}
				if tc.edit {
					if err := os.WriteFile(file, []byte("# Mine\n- mine, typed meanwhile\n"), 0o644); err != nil {
						t.Error(err)
					}
				}
				h.m.Approvals().DecideChange(a.ID, allHunks(v, tc.approve))
			})
			if r := h.turn("Remember for every project: answer in British English"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			if asked != tc.asked {
				t.Errorf("asked %v, want %v", asked, tc.asked)
			}
			b, err := os.ReadFile(file)
			if got := string(b); got != tc.want || (tc.want == "") != os.IsNotExist(err) {
				t.Errorf("the file holds %q (%v), want %q", got, err, tc.want)
			}
			if res := h.results(1); len(res) != 1 || !strings.Contains(res[0].Content, tc.result) {
				t.Errorf("result %+v, want it to say %q", res, tc.result)
			}
			if h.read("main.go") != "package main\n" {
				t.Error("the project changed")
			}
		})
	}
}
