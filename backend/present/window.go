package present

import (
	"pilot/backend/wire"

	"pilot/backend/toolname"
)

// WindowInputMax is the largest tool input the window is sent. Cards read
// small inputs (a plan's steps); a larger one is a file's content
// (write_file of a big file), which no card shows and which would cross the
// bridge twice (the message and the card) before its review. The text of a
// tool result is never sent: the card has the same output, and a result's
// images are kept.
const WindowInputMax = 16 << 10

// shownInput are the tools whose cards show their input whatever its
// size: the plan card, the task list.
var shownInput = map[string]bool{toolname.PresentPlan: true, toolname.TodoWrite: true}

// WindowMessage is m without tool inputs over WindowInputMax and without
// tool results' text; m is not changed.
func WindowMessage(m wire.Message) wire.Message {
	blocks := make([]wire.Block, len(m.Blocks))
	for i, b := range m.Blocks {
		if len(b.Input) > WindowInputMax && !shownInput[b.Name] {
			b.Input = nil
		}
		if b.Type == "tool_result" {
			b.Text = ""
		}
		blocks[i] = b
	}
	m.Blocks = blocks
	return m
}

// WindowToolCall is c without its input if that is over WindowInputMax
// (and its card does not show it).
func WindowToolCall(c wire.ToolCall) wire.ToolCall {
	if len(c.Input) > WindowInputMax && !shownInput[c.Name] {
		c.Input = nil
	}
	return c
}

// ForWindow is an event's payload as the window gets it: a message or tool
// call without what the window never shows; any other payload unchanged.
func ForWindow(payload any) any {
	switch p := payload.(type) {
	case wire.MessagePayload:
		p.Message = WindowMessage(p.Message)
		return p
	case wire.ToolPayload:
		p.Call = WindowToolCall(p.Call)
		return p
	}
	return payload
}
