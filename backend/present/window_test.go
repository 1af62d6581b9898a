package present

import (
	"encoding/json"
	"strings"
	"testing"

	"pilot/backend/wire"
)

func TestForWindow(t *testing.T) {
	t.Parallel()
	input := json.RawMessage(`{"path":"a.go","content":"` + strings.Repeat("x", WindowInputMax) + `"}`)
	small := json.RawMessage(`{"steps":["read","change"]}`)
	msg := wire.Message{ID: 1, Blocks: []wire.Block{
		{Type: "text", Text: "Writing."},
		{Type: "tool_use", ID: "t1", Name: "write_file", Input: input},
		{Type: "tool_use", ID: "t2", Name: "plan", Input: small},
		{Type: "tool_result", ToolUseID: "t1", Text: "wrote a.go", Images: []wire.Block{{Type: "image", Hash: "h"}}},
	}}
	call := wire.ToolCall{ID: "t1", Name: "write_file", Label: "→ Writing file: a.go", Input: input, Output: "wrote a.go"}
	// What the terminal gets is not touched (checked once every subtest ran).
	t.Cleanup(func() {
		if msg.Blocks[1].Input == nil || msg.Blocks[3].Text == "" || call.Input == nil {
			t.Error("ForWindow changed its argument")
		}
	})
	for _, c := range []struct {
		name    string
		payload any
		check   func(t *testing.T, got any)
	}{
		{"message", wire.MessagePayload{Message: msg}, func(t *testing.T, got any) {
			m := got.(wire.MessagePayload).Message
			if m.Blocks[0].Text != "Writing." || m.Blocks[1].Input != nil || m.Blocks[1].Name != "write_file" {
				t.Errorf("blocks %+v", m.Blocks)
			}
			if string(m.Blocks[2].Input) != string(small) {
				t.Errorf("a small input (cards read them) was left out: %+v", m.Blocks[2])
			}
			if r := m.Blocks[3]; r.Text != "" || r.ToolUseID != "t1" || len(r.Images) != 1 {
				t.Errorf("tool result %+v: text left out, id and images kept", r)
			}
		}},
		{"tool call", wire.ToolPayload{Call: call}, func(t *testing.T, got any) {
			c := got.(wire.ToolPayload).Call
			if c.Input != nil || c.Label != call.Label || c.Output != call.Output {
				t.Errorf("call %+v", c)
			}
		}},
		{"a big plan", wire.ToolPayload{Call: wire.ToolCall{ID: "p1", Name: "present_plan", Input: input}}, func(t *testing.T, got any) {
			if c := got.(wire.ToolPayload).Call; string(c.Input) != string(input) {
				t.Error("a plan's input (its card shows it) was left out")
			}
		}},
		{"a long task list", wire.MessagePayload{Message: wire.Message{Blocks: []wire.Block{{Type: "tool_use", Name: "todo_write", Input: input}}}}, func(t *testing.T, got any) {
			if b := got.(wire.MessagePayload).Message.Blocks[0]; string(b.Input) != string(input) {
				t.Error("a task list's input (the list shows it) was left out")
			}
		}},
		{"small tool call", wire.ToolPayload{Call: wire.ToolCall{ID: "t2", Input: small}}, func(t *testing.T, got any) {
			if c := got.(wire.ToolPayload).Call; string(c.Input) != string(small) {
				t.Errorf("call %+v: a small input is kept", c)
			}
		}},
		{"other", wire.ToolOutputPayload{ToolCallID: "t1", Chunk: "x"}, func(t *testing.T, got any) {
			if got.(wire.ToolOutputPayload).Chunk != "x" {
				t.Errorf("changed: %+v", got)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.check(t, ForWindow(c.payload))
		})
	}
}
