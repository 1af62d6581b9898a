package agent

import (
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

const mainGo = "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"

func TestReadExploreEdit(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{Text: "Let me look.", ToolCalls: []fakellm.ToolCall{toolCall("t1", "list_files", `{}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("t2", "grep", `{"pattern":"println\\("}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("t3", "read_file", `{"path":"main.go"}`)}},
				{ToolCalls: []fakellm.ToolCall{toolCall("t4", "patch_file", `{"path":"main.go","old_text":"hello","new_text":"hello, world"}`)}},
				{Text: "Changed the greeting."},
			}}, setup{files: map[string]string{"main.go": mainGo}})
			h.approveAll()
			if r := h.turn("Make it greet the world"); r != ReasonEndTurn {
				t.Fatalf("reason %s; errors %v", r, h.rec.events(wire.AgentError))
			}
			if got := h.read("main.go"); got != strings.Replace(mainGo, "hello", "hello, world", 1) {
				t.Errorf("main.go:\n%s", got)
			}
			reqs := h.srv.Requests()
			if len(reqs) != 5 {
				t.Fatalf("%d model calls", len(reqs))
			}
			if !strings.Contains(reqs[1].ToolResults[0].Content, "main.go") {
				t.Errorf("list_files result: %+v", reqs[1].ToolResults)
			}
			if !strings.Contains(reqs[2].ToolResults[0].Content, "main.go:4") {
				t.Errorf("grep result: %+v", reqs[2].ToolResults)
			}
			last := reqs[4].ToolResults
			if len(last) != 1 || last[0].ToolUseID != "t4" || last[0].IsError || !strings.HasPrefix(last[0].Content, "main.go: applied hunk 1 of 1\n") {
				t.Errorf("patch result: %+v", last)
			}
			if !strings.Contains(reqs[0].System, "RE2") || !strings.Contains(reqs[0].System, h.dir) && !strings.Contains(reqs[0].System, "Project folder") {
				t.Errorf("system prompt: %s", reqs[0].System)
			}
			ms := h.messages()
			checkPairs(t, ms)
			if len(ms) != 10 || ms[9].Content[0].Text != "Changed the greeting." || ms[9].State != wire.MessageComplete {
				t.Errorf("%d messages; last %+v", len(ms), ms[len(ms)-1])
			}
			calls, _ := h.st.ToolCalls.List(t.Context(), h.sess.ID)
			if len(calls) != 4 || calls[3].Approval != store.ApprovalApproved || calls[3].Status != wire.ToolDone {
				t.Errorf("tool calls %+v", calls)
			}
			changes, _ := h.st.Changes.List(t.Context(), h.sess.ID)
			if len(changes) != 1 || !changes[0].Applied || changes[0].Hunks[0].Decision != store.HunkApproved {
				t.Errorf("changes %+v", changes)
			}
			checkEvents(t, h)
		})
	}
}

// checkEvents checks the event stream of a session: sequence numbers
// strictly increase, the states follow the table, streamed text adds up to
// the committed answers.
func checkEvents(t *testing.T, h *harness) {
	t.Helper()
	h.rec.mu.Lock()
	all := append([]recorded(nil), h.rec.all...)
	h.rec.mu.Unlock()
	var last int64
	state := Idle
	streamed := map[int64]string{}
	for _, e := range all {
		var seq wire.Seq
		switch p := e.payload.(type) {
		case wire.StatePayload:
			seq = p.Seq
			if !CanTransition(state, State(p.State)) {
				t.Errorf("state %s -> %s", state, p.State)
			}
			state = State(p.State)
		case wire.StreamPayload:
			seq = p.Seq
			streamed[p.MessageID] += p.Text
		case wire.MessagePayload:
			seq = p.Seq
			if p.Message.Role == "assistant" && p.Message.Blocks[0].Type == "text" && streamed[p.Message.ID] != p.Message.Blocks[0].Text {
				t.Errorf("streamed %q, committed %q", streamed[p.Message.ID], p.Message.Blocks[0].Text)
			}
		case wire.ToolPayload:
			seq = p.Seq
		case wire.UsagePayload:
			seq = p.Seq
			if p.Usage.ContextWindow == 0 || p.Usage.ContextTokens == 0 {
				t.Errorf("usage without context: %+v", p.Usage)
			}
		case wire.TurnDonePayload:
			seq = p.Seq
		case wire.ApprovalPayload:
			seq = p.Seq
		case wire.ApprovalDonePayload:
			seq = p.Seq
		default:
			continue
		}
		if seq.SessionID != h.sess.ID || seq.Seq <= last {
			t.Errorf("%s: seq %+v after %d", e.name, seq, last)
		}
		last = seq.Seq
	}
	if state != Idle {
		t.Errorf("ended in %s", state)
	}
}

// TestToolResultIDsOnTheWire is the regression test for the original
// REPL's missing tool_use_id: several calls in one answer, read-only and
// change-making mixed, each answered once, in order, with its id.
func TestToolResultIDsOnTheWire(t *testing.T) {
	t.Parallel()
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, format, fakellm.Script{Turns: []fakellm.Turn{
				{ToolCalls: []fakellm.ToolCall{
					toolCall("id_a", "read_file", `{"path":"a.txt"}`),
					toolCall("id_b", "read_file", `{"path":"b.txt"}`),
				}},
				{ToolCalls: []fakellm.ToolCall{
					toolCall("id_c", "patch_file", `{"path":"a.txt","old_text":"alpha","new_text":"ALPHA"}`),
					toolCall("id_d", "glob", `{"pattern":"*.txt"}`),
					toolCall("id_e", "patch_file", `{"path":"b.txt","old_text":"beta","new_text":"BETA"}`),
					toolCall("id_f", "read_file", `{"path":"a.txt"}`),
				}},
				{Text: "Both done."},
			}}, setup{mode: "edits", files: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}})
			if r := h.turn("Upper-case both"); r != ReasonEndTurn {
				t.Fatalf("reason %s", r)
			}
			first := h.results(1)
			if len(first) != 2 || first[0].ToolUseID != "id_a" || first[1].ToolUseID != "id_b" ||
				!strings.Contains(first[0].Content, "alpha") || !strings.Contains(first[1].Content, "beta") {
				t.Errorf("first results %+v", first)
			}
			second := h.results(2)
			var ids []string
			for _, r := range second {
				ids = append(ids, r.ToolUseID)
				if r.IsError {
					t.Errorf("%s failed: %s", r.ToolUseID, r.Content)
				}
			}
			if strings.Join(ids, ",") != "id_c,id_d,id_e,id_f" {
				t.Errorf("ids on the wire: %v", ids)
			}
			// The read after the patch sees the patched file: calls run in
			// the model's order around changes.
			if !strings.Contains(second[3].Content, "ALPHA") {
				t.Errorf("read after patch: %q", second[3].Content)
			}
			if h.read("a.txt") != "ALPHA\n" || h.read("b.txt") != "BETA\n" {
				t.Error("files not changed")
			}
			checkPairs(t, h.messages())
		})
	}
}
