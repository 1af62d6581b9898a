package view

import "pilot/backend/events"

// The window never shows a tool's input (a card shows its label, built
// from the input in Go, and its output) nor the text of a tool result (the
// same output, on the card; a result's images are shown and kept). For a
// large change or a long session that is most of what would cross the
// bridge: a write_file's whole content twice (the message and the card),
// every file read twice. The terminal's events keep both.

// WindowMessage is m without tools' inputs and tool results' text; m is
// not changed.
func WindowMessage(m events.Message) events.Message {
	blocks := make([]events.Block, len(m.Blocks))
	for i, b := range m.Blocks {
		b.Input = nil
		if b.Type == "tool_result" {
			b.Text = ""
		}
		blocks[i] = b
	}
	m.Blocks = blocks
	return m
}

// WindowToolCall is c without its input.
func WindowToolCall(c events.ToolCall) events.ToolCall {
	c.Input = nil
	return c
}

// ForWindow is an event's payload as the window gets it: a message or tool
// call without what the window never shows; any other payload unchanged.
func ForWindow(payload any) any {
	switch p := payload.(type) {
	case events.MessagePayload:
		p.Message = WindowMessage(p.Message)
		return p
	case events.ToolPayload:
		p.Call = WindowToolCall(p.Call)
		return p
	}
	return payload
}
