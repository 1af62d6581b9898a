package agent

import (
	"context"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// TestStepLabels: the Changes view's label of each step says what it
// changed (the first changed line) and the size actually written: two
// same-length edits of one file are told apart (not "+0 bytes" twice),
// and a change of which the user approved one hunk of two gives the size
// of what was written, not of the proposal.
func TestStepLabels(t *testing.T) {
	t.Parallel()
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{
			toolCall("p1", "patch_file", `{"path":"a.txt","old_text":"alpha\n","new_text":"ALPHA\n"}`),
			toolCall("p2", "patch_file", `{"path":"a.txt","old_text":"beta\n","new_text":"BETA\n"}`),
			toolCall("m1", "multi_patch", `{"edits":[
				{"path":"long.txt","old_text":"line 5\n","new_text":"five\n"},
				{"path":"long.txt","old_text":"line 35\n","new_text":"thirty-five\n"}]}`),
			toolCall("w1", "write_file", `{"path":"new.txt","content":"hello\n"}`),
		}},
		{Text: "Done.", When: &fakellm.When{HasToolResult: true}},
	}}, setup{files: map[string]string{"a.txt": "alpha\nbeta\n", "long.txt": numbered(40)}})
	h.approveWith(func(a wire.Approval) {
		v, err := h.m.Approvals().Change(a.ID)
		if err != nil {
			t.Errorf("change %v", err)
			return
		}
		d := allHunks(v, true)
		if v.Files[0].Path == "long.txt" {
			d.Files[0].Hunks[1] = false // only "line 5 → five" is written
		}
		h.m.Approvals().DecideChange(a.ID, d)
	})
	h.turn("edit")
	cps, err := h.st.Checkpoints.List(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cp := range cps {
		got = append(got, cp.Label)
	}
	want := []string{
		"Changed a.txt: alpha → ALPHA (same size)",
		"Changed a.txt: beta → BETA (same size)",
		"Changed long.txt: line 5 → five (311 → 309 bytes)", // the proposal was 313 bytes
		"Created new.txt (6 bytes)",
	}
	if len(got) != len(want) {
		t.Fatalf("labels %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: %q, want %q", i, got[i], want[i])
		}
	}
	if got := h.read("long.txt"); len(got) != 309 {
		t.Errorf("long.txt is %d bytes, want 309", len(got))
	}
}
