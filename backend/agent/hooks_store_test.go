package agent

import (
	"context"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
	"pilot/backend/present"
	"pilot/backend/wire"
)

// The hook runs of a call are stored with it: read back (as after a
// reload), the card lists them as it did live, and a call a PreToolUse
// hook blocked is shown refused by that hook, not merely rejected. Before
// migration 0013 the runs were lost and the card said only "rejected".
func TestHookRunsStoredWithTheCall(t *testing.T) {
	t.Parallel()
	const guard = `echo "Reading secrets is off limits." >&2; exit 2`
	h := newHarness(t, llm.ProviderAnthropic, fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{toolCall("r1", "read_file", `{"path":"secret.txt"}`)}},
		{Text: "ok"},
	}}, setup{files: map[string]string{"secret.txt": "s3cret"}, hooks: hookSet(t, "PreToolUse", "Read", guard)})
	if r := h.turn("read"); r != ReasonEndTurn {
		t.Fatalf("reason %s", r)
	}
	calls, err := h.st.ToolCalls.List(context.Background(), h.sess.ID)
	if err != nil || len(calls) != 1 {
		t.Fatalf("calls %d, %v", len(calls), err)
	}
	card := present.ToolCall(calls[0], "")
	if len(card.Hooks) != 1 {
		t.Fatalf("stored card's hook runs: %+v", card.Hooks)
	}
	run := card.Hooks[0]
	if run.Event != "PreToolUse" || run.Decision != wire.HookDeny || run.Hook != guard || run.ExitCode != 2 {
		t.Errorf("stored run %+v", run)
	}
	if card.RefusedBy != wire.RefusedByHook || card.RefusedRule != guard {
		t.Errorf("stored card refused by %q %q, want the hook", card.RefusedBy, card.RefusedRule)
	}
}
