package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pilot/backend/internal/fakellm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestPartialHunks(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("mp", "multi_patch", `{"edits":[
					{"path":"f.txt","old_text":"line 5\n","new_text":"five\n"},
					{"path":"f.txt","old_text":"line 20\n","new_text":"twenty\n"},
					{"path":"f.txt","old_text":"line 35\n","new_text":"thirty-five\n"}]}`)}},
				{Text: "Understood."},
			}}, setup{files: map[string]string{"f.txt": numbered(40)}})
			h.approveWith(func(a wire.Approval) {
				v, err := h.m.Approvals().Change(a.ID)
				if err != nil || len(v.Files) != 1 || len(v.Files[0].Hunks) != 3 {
					t.Errorf("change %+v %v", v, err)
					return
				}
				h.m.Approvals().DecideChange(a.ID, wire.ChangeDecision{Feedback: "keep line 20",
					Files: []wire.FileDecision{{Path: "f.txt", Hunks: []bool{true, false, true}}}})
			})
			if r := h.turn("Spell out three lines"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			want := strings.NewReplacer("line 5\n", "five\n", "line 35\n", "thirty-five\n").Replace(numbered(40))
			if got := h.read("f.txt"); got != want {
				t.Errorf("file:\n%s", got)
			}
			res := h.results(1)
			head := "f.txt: applied hunks 1 and 3 of 3; rejected hunk 2 (lines 17-23): keep line 20\n" +
				"Rejected hunks were not written; read the file before changing it again.\n"
			if len(res) != 1 || res[0].ToolUseID != "mp" || !strings.HasPrefix(res[0].Content, head) {
				t.Errorf("tool result:\n%+v", res)
			}
			changes, _ := h.st.Changes.List(t.Context(), h.sess.ID)
			calls, _ := h.st.ToolCalls.List(t.Context(), h.sess.ID)
			if len(changes) != 1 || !changes[0].Applied || changes[0].Hunks[1].Decision != store.HunkRejected || changes[0].Hunks[2].Decision != store.HunkApproved {
				t.Errorf("change %+v", changes)
			}
			if calls[0].Approval != store.ApprovalPartial || calls[0].Feedback != "keep line 20" {
				t.Errorf("call %+v", calls[0])
			}
			done := h.rec.events(wire.AgentApprovalDone)
			if len(done) != 1 || done[0].(wire.ApprovalDonePayload).Outcome != "partial" {
				t.Errorf("approval done %+v", done)
			}
			if strings.Contains(res[0].Content, "edited") {
				t.Errorf("the model is told the user edited a change they only partly approved:\n%s", res[0].Content)
			}
			// The card says what was applied, and the ledger can undo it.
			tools := h.rec.events(wire.AgentTool)
			card := tools[len(tools)-1].(wire.ToolPayload).Call
			if card.Change == nil || card.Change.Applied != 2 || card.Change.Total != 3 || card.Change.Edited || card.Change.CheckpointID == 0 ||
				!slices.Equal(card.Change.Files[0].Decisions, []wire.HunkDecision{wire.HunkApproved, wire.HunkRejected, wire.HunkApproved}) {
				t.Fatalf("card %+v", card.Change)
			}
			detail, err := h.lg.ChangeDetail(t.Context(), h.sess.ID, "mp")
			if err != nil || len(detail.Applied) != 1 || len(detail.Applied[0].Hunks) != 2 || len(detail.Proposed[0].Hunks) != 3 {
				t.Fatalf("detail %+v %v", detail, err)
			}
			if _, err := h.lg.RevertCheckpointFor(t.Context(), card.Change.CheckpointID, wire.RestoreInput{}); err != nil {
				t.Fatal(err)
			}
			if got := h.read("f.txt"); got != numbered(40) {
				t.Errorf("after revert:\n%s", got)
			}
		})
	}
}

func TestEditBeforeApprove(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("p1", "patch_file", `{"path":"f.txt","old_text":"line 3","new_text":"three"}`)}},
		{Text: "Noted."},
	}}, setup{files: map[string]string{"f.txt": numbered(6)}})
	edited := "line 1\nline 2\nTHREE (my way)\nline 4\nline 5\nline 6\n"
	h.approveWith(func(a wire.Approval) {
		h.m.Approvals().DecideChange(a.ID, wire.ChangeDecision{Files: []wire.FileDecision{{Path: "f.txt", EditedText: &edited}}})
	})
	if r := h.turn("Change line 3"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := h.read("f.txt"); got != edited {
		t.Errorf("file %q", got)
	}
	res := h.results(1)
	if want := "f.txt: the user edited your change before applying it; the file now reads:\n" + edited; !strings.HasPrefix(res[0].Content, want) {
		t.Errorf("result %q", res[0].Content)
	}
	changes, _ := h.st.Changes.List(t.Context(), h.sess.ID)
	if changes[0].UserEdited == nil || *changes[0].UserEdited != edited || !changes[0].Applied {
		t.Errorf("change %+v", changes[0])
	}
}

func TestRejectWithFeedback(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{toolCall("p1", "patch_file", `{"path":"f.txt","old_text":"line 3","new_text":"three"}`)}},
				{Text: "I will use tabs."},
			}}, setup{files: map[string]string{"f.txt": numbered(6)}})
			h.approveWith(func(a wire.Approval) {
				v, _ := h.m.Approvals().Change(a.ID)
				d := allHunks(v, false)
				d.Feedback = "use tabs"
				h.m.Approvals().DecideChange(a.ID, d)
			})
			if r := h.turn("Change line 3"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			if h.read("f.txt") != numbered(6) {
				t.Error("file changed")
			}
			want := "f.txt: rejected hunk 1 of 1 (lines 1-6): use tabs\nRejected hunks were not written; read the file before changing it again.\nNothing was written."
			if res := h.results(1); res[0].Content != want || res[0].ToolUseID != "p1" {
				t.Errorf("result %q", res[0].Content)
			}
			calls, _ := h.st.ToolCalls.List(t.Context(), h.sess.ID)
			if calls[0].Status != wire.ToolRejected || calls[0].Approval != store.ApprovalRejected || calls[0].Feedback != "use tabs" {
				t.Errorf("call %+v", calls[0])
			}
		})
	}
}

func TestStaleProposalIsShownAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "openai", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("p1", "patch_file", `{"path":"f.txt","old_text":"b\n","new_text":"B\n"}`)}},
		{Text: "Done."},
	}}, setup{files: map[string]string{"f.txt": "a\nb\nc\n"}})
	var asked atomic.Int32
	// While the first approval is open, an editor saves the user's change
	// to line 1. The approved change is then shown again against the
	// current content instead of overwriting it.
	h.approveWith(func(a wire.Approval) {
		v, _ := h.m.Approvals().Change(a.ID)
		switch asked.Add(1) {
		case 1:
			_ = os.WriteFile(filepath.Join(h.dir, "f.txt"), []byte("a0\nb\nc\n"), 0o644)
		case 2:
			if f := v.Files[0]; f.NewText != "a0\nB\nc\n" || len(f.Hunks) != 1 || len(f.Hunks[0].Lines) == 0 || f.Hunks[0].Lines[0].Text != "a0" {
				t.Errorf("shown again as %+v, want re-diffed against the file now (a0 as context)", v.Files[0])
			}
		}
		h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
	})
	if r := h.turn("Capitalise b"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := h.read("f.txt"); got != "a0\nB\nc\n" {
		t.Errorf("file %q: the user's edit was lost or the change not applied", got)
	}
	if asked.Load() != 2 || len(h.rec.notices("stale")) != 1 {
		t.Errorf("asked %d times, notices %v", asked.Load(), h.rec.notices("stale"))
	}
}

func TestStaleProposalThatNoLongerApplies(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("p1", "patch_file", `{"path":"f.txt","old_text":"b\n","new_text":"B\n"}`)}},
		{Text: "I will read it again."},
	}}, setup{files: map[string]string{"f.txt": "a\nb\nc\n"}})
	h.approveWith(func(a wire.Approval) {
		_ = os.WriteFile(filepath.Join(h.dir, "f.txt"), []byte("a\nx\nc\n"), 0o644)
		v, _ := h.m.Approvals().Change(a.ID)
		h.m.Approvals().DecideChange(a.ID, allHunks(v, true))
	})
	if r := h.turn("Capitalise b"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	if got := h.read("f.txt"); got != "a\nx\nc\n" {
		t.Errorf("the user's version was overwritten: %q", got)
	}
	res := h.results(1)
	if !res[0].IsError || !strings.HasPrefix(res[0].Content, "Not applied: f.txt changed on disk after you proposed this change") {
		t.Errorf("result %+v", res[0])
	}
}

func TestCancelDuringApproval(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "anthropic", fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("p1", "patch_file", `{"path":"f.txt","old_text":"b","new_text":"B"}`), toolCall("p2", "list_files", `{}`)}},
		{Text: "Fine.", When: &fakellm.When{LastUserContains: "never mind"}},
	}}, setup{files: map[string]string{"f.txt": "a\nb\n"}})
	h.approveWith(func(a wire.Approval) {
		if len(h.m.Approvals().Pending(h.sess.ID)) != 1 || h.m.State(h.sess.ID) != AwaitingApproval {
			t.Errorf("pending %v state %s", h.m.Approvals().Pending(h.sess.ID), h.m.State(h.sess.ID))
		}
		h.m.Cancel(h.sess.ID)
	})
	if r := h.turn("Capitalise b"); r != ReasonCancelled {
		t.Fatalf("reason %s", r)
	}
	if h.read("f.txt") != "a\nb\n" || len(h.m.Approvals().Pending(h.sess.ID)) != 0 {
		t.Error("file changed or approval left pending")
	}
	done := h.rec.events(wire.AgentApprovalDone)
	if len(done) != 1 || done[0].(wire.ApprovalDonePayload).Outcome != "cancelled" {
		t.Errorf("done %+v", done)
	}
	if err := h.m.Approvals().DecideChange(h.rec.events(wire.AgentApproval)[0].(wire.ApprovalPayload).Approval.ID, wire.ChangeDecision{}); err == nil {
		t.Error("a decision after cancel was accepted")
	}
	ms := h.messages()
	checkPairs(t, ms)
	// The next turn continues from a valid history.
	if r := h.turn("never mind"); r != ReasonEndTurn {
		t.Fatalf("next turn: %s", r)
	}
	res := h.results(1)
	if len(res) != 2 || res[0].ToolUseID != "p1" || res[1].ToolUseID != "p2" || !strings.HasPrefix(res[0].Content, "Not run: the user stopped") && !strings.HasPrefix(res[0].Content, "Stopped") {
		t.Errorf("results after cancel %+v", res)
	}
}

func TestCancelDuringStreaming(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: strings.Repeat("word ", 400), Fault: &fakellm.Fault{DelayMs: 5}},
				{Text: "Starting over."},
			}}, setup{})
			var once atomic.Bool
			h.rec.onEvent = func(name string, p any) {
				if name == wire.AgentStream && once.CompareAndSwap(false, true) {
					go h.m.Cancel(h.sess.ID)
				}
			}
			start := time.Now()
			if r := h.turn("Write a lot"); r != ReasonCancelled {
				t.Fatalf("reason %s", r)
			}
			if d := time.Since(start); d > 1500*time.Millisecond {
				t.Errorf("cancel took %s", d)
			}
			ms := h.messages()
			if len(ms) != 2 || ms[1].State != wire.MessageInterrupted || !strings.HasPrefix(ms[1].Content[0].Text, "word") {
				t.Fatalf("messages %+v", ms)
			}
			s, _ := h.st.Sessions.Get(t.Context(), h.sess.ID)
			if s.State != wire.SessionInterrupted {
				t.Errorf("session state %s", s.State)
			}
			h.rec.onEvent = nil
			if r := h.turn("Again, shorter"); r != ReasonEndTurn {
				t.Fatalf("next turn %s", r)
			}
		})
	}
}
