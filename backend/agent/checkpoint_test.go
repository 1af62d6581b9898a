package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestCommandEffectsOnCard: an approved command's card lists what it
// created, modified and deleted (ignored files listed as not kept, a file
// over the size limit listed as not kept with a note), the ledger can
// revert it, and the model is told on its next turn.
func TestCommandEffectsOnCard(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 5<<20)
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash",
			`{"command":"sed -i 's/one/ONE/' a.txt && rm gone.txt && echo new > made.txt && echo junk > build.log && head -c 5242880 /dev/zero | tr '\\0' x > big.bin"}`)}},
		{Text: "Done."},
		{Text: "Noted."},
	}}, setup{files: map[string]string{"a.txt": "one\n", "gone.txt": "bye\n", ".gitignore": "*.log\n"}})
	h.approveAll()
	if r := h.turn("tidy"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	tools := h.rec.events(wire.AgentTool)
	card := tools[len(tools)-1].(wire.ToolPayload).Call
	if card.Effects == nil {
		t.Fatal("the command's card has no effects")
	}
	got := map[string]string{}
	for _, f := range card.Effects.Files {
		got[f.Path] = string(f.Op)
		if f.Path == "big.bin" && (!f.Kept || !strings.Contains(f.Why, "diff cannot be shown")) { // created: revertable
			t.Errorf("big.bin over the limit: %+v", f)
		}
	}
	want := map[string]string{"a.txt": "modified", "gone.txt": "deleted", "made.txt": "created", "big.bin": "created"}
	for p, op := range want {
		if got[p] != op {
			t.Errorf("%s: %q, want %q (all: %v)", p, got[p], op, got)
		}
	}
	for _, f := range card.Effects.Files {
		if f.Path == "build.log" && (f.Kept || !f.Listed || f.Op != wire.OpCreated) {
			t.Errorf("the ignored file is %+v, want listed, not kept", f)
		}
	}
	if _, ok := got["build.log"]; !ok {
		t.Error("the ignored file is not listed")
	}
	if !strings.Contains(card.Effects.Note, "not kept") {
		t.Errorf("note %q", card.Effects.Note)
	}
	if len(h.read("big.bin")) != len(big) {
		t.Fatal("big.bin was not written by the command")
	}
	res, err := h.lg.RevertCheckpointFor(t.Context(), card.Effects.CheckpointID, wire.RestoreInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 0 || !res.Done {
		t.Errorf("revert %+v", res)
	}
	if _, err := fileExists(h, "big.bin"); err == nil {
		t.Error("big.bin, created by the command, is still there")
	}
	// The revert kept the big file it removed: undoing it brings it back.
	if _, err := h.lg.RevertCheckpointFor(t.Context(), res.CheckpointID, wire.RestoreInput{}); err != nil {
		t.Fatal(err)
	}
	if len(h.read("big.bin")) != len(big) {
		t.Error("undoing the revert did not bring big.bin back")
	}
	if _, err := h.lg.RevertCheckpointFor(t.Context(), card.Effects.CheckpointID, wire.RestoreInput{}); err != nil {
		t.Fatal(err)
	}
	if h.read("a.txt") != "one\n" || h.read("gone.txt") != "bye\n" {
		t.Errorf("after revert a %q gone %q", h.read("a.txt"), h.read("gone.txt"))
	}
	if _, err := fileExists(h, "made.txt"); err == nil {
		t.Error("made.txt is still there")
	}
	if r := h.turn("thanks"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	last := h.srv.Requests()[2]
	if !strings.Contains(last.LastUserText, "[Pilot] Since your last turn the user reverted") {
		t.Errorf("the model was not told about the revert: %q", last.LastUserText)
	}
}

// TestCommandRunsCodeTold: a sandboxed command that makes a repository
// with a hook and an executable script: its card lists every file it
// changed (the ones in the new .git folder too, as not kept) with why each
// can run code, and the model's result ends with one sentence naming the
// files that can run code and what cannot be undone.
func TestCommandRunsCodeTold(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const cmd = `mkdir sub && cd sub && git init -q && printf '#!/bin/sh\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout; cd .. && printf x > run.sh && chmod +x run.sh && printf y > notes.txt`
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("b1", "run_bash", fmt.Sprintf(`{"command":%q}`, cmd))}},
		{Text: "Done."},
	}}, setup{mode: "edits", files: map[string]string{"a.txt": "a\n"}})
	h.approveAll() // asked only where the sandbox cannot start
	if r := h.turn("set up"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	tools := h.rec.events(wire.AgentTool)
	card := tools[len(tools)-1].(wire.ToolPayload).Call
	if card.Effects == nil {
		t.Fatal("the command's card has no effects")
	}
	if card.Sandbox == nil || !card.Sandbox.Sandboxed {
		t.Logf("the command ran outside the sandbox: %+v", card.Sandbox)
	}
	byPath := map[string]wire.FileEffect{}
	for _, f := range card.Effects.Files {
		byPath[f.Path] = f
	}
	for p, want := range map[string]struct {
		kept, listed bool
		runs         string
	}{
		"sub/.git":                     {false, true, "repository"},
		"sub/.git/hooks/post-checkout": {false, true, "git hook"},
		"sub/.git/config":              {false, true, "git config"},
		"sub/.git/HEAD":                {false, true, ""},
		"run.sh":                       {true, false, "executable"},
		"notes.txt":                    {true, false, ""},
	} {
		f, ok := byPath[p]
		if !ok || f.Kept != want.kept || f.Listed != want.listed || (f.RunsCode == "") != (want.runs == "") || !strings.Contains(f.RunsCode, want.runs) {
			t.Errorf("%s on the card: %+v (listed %v), want kept %v, listed %v, runs code %q", p, f, ok, want.kept, want.listed, want.runs)
		}
	}
	// A reloaded card (the window's GetSession) shows the same.
	cards, err := h.lg.Cards(t.Context(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored := cards.Effects["b1"]; stored == nil || !reflect.DeepEqual(stored.Files, card.Effects.Files) {
		t.Errorf("the stored card lists %+v, the live one %+v", stored, card.Effects.Files)
	}
	res := h.results(1)[0].Content
	line := res[strings.LastIndex(res, "\n")+1:]
	if !strings.HasPrefix(line, "This command changed files that can run code: ") ||
		!strings.Contains(line, "sub/.git/hooks/post-checkout (a git hook; not kept, cannot be undone)") ||
		!strings.Contains(line, "run.sh (executable)") || !strings.Contains(line, "sub/.git (a new git repository") ||
		strings.Contains(line, "notes.txt") || strings.Contains(line, "HEAD") {
		t.Errorf("the model's result ends %q", line)
	}
}

// TestJobRunsCodeTold: what a background job changed that can run code is
// told to the model with the user's next message (the call that started
// the job has had its result).
func TestJobRunsCodeTold(t *testing.T) {
	t.Parallel()
	cmd := `echo started; while [ ! -e go ]; do sleep 0.05; done; mkdir -p x/.git/hooks && printf '#!/bin/sh\n' > x/.git/hooks/pre-commit && touch done; sleep 300`
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("c1", "run_bash", fmt.Sprintf(`{"command":%q,"background":true}`, cmd))}},
		{Text: "Started."},
		{Text: "Noted."},
	}}, setup{mode: "edits", opt: Options{Sandbox: (&fakeBox{}).options(t, false)}})
	h.approveAll()
	if r := h.turn("work"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the job writing the hook", func() bool { _, err := fileExists(h, "done"); return err == nil })
	if err := h.m.StopJob(context.Background(), h.sess.ID, "1"); err != nil {
		t.Fatal(err)
	}
	if r := h.turn("more"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	last := h.srv.Requests()[2].LastUserText
	if !strings.Contains(last, "[Pilot] The background job 1 changed files that can run code: x/.git (a new git repository: git runs its hooks and config here; not kept, cannot be undone), x/.git/hooks/pre-commit (a git hook; not kept, cannot be undone).") {
		t.Errorf("the model was told %q", last)
	}
}
