package agent

import (
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
