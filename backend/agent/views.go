package agent

import (
	"fmt"
	"strings"

	"pilot/backend/events"
	"pilot/backend/llm"
	"pilot/backend/store"
)

// messageView is a stored message as the window shows it.
func messageView(m store.Message) events.Message {
	v := events.Message{ID: m.ID, Role: string(m.Role), State: string(m.State), CreatedAt: m.CreatedAt.UnixMilli(), Blocks: make([]events.Block, 0, len(m.Content))}
	for _, b := range m.Content {
		eb := events.Block{Type: string(b.Type)}
		switch b.Type {
		case llm.BlockText:
			eb.Text = b.Text
		case llm.BlockThinking:
			eb.Text = b.Thinking
		case llm.BlockToolUse:
			eb.ID, eb.Name, eb.Input = b.ID, b.Name, b.Input
		case llm.BlockToolResult:
			eb.ToolUseID, eb.Text, eb.IsError = b.ToolUseID, b.Content, b.IsError
		}
		v.Blocks = append(v.Blocks, eb)
	}
	return v
}

// sessionView is a session's row in the list.
func sessionView(s store.Session) events.SessionSummary {
	u := s.Usage
	return events.SessionSummary{
		ID: s.ID, ProjectID: s.ProjectID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: s.CreatedAt.UnixMilli(), UpdatedAt: s.UpdatedAt.UnixMilli(),
		Tokens:  u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens,
		CostUSD: s.CostUSD, State: string(s.State),
	}
}

// storeHunks converts hunks to the store's unified form, all pending.
func storeHunks(hs []events.Hunk) []store.Hunk {
	out := make([]store.Hunk, len(hs))
	for i, h := range hs {
		var b strings.Builder
		for j, l := range h.Lines {
			if j > 0 {
				b.WriteByte('\n')
			}
			switch l.Kind {
			case "add":
				b.WriteByte('+')
			case "del":
				b.WriteByte('-')
			default:
				b.WriteByte(' ')
			}
			b.WriteString(l.Text)
		}
		out[i] = store.Hunk{
			Header:   fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldLines, h.NewStart, h.NewLines),
			Text:     b.String(),
			Decision: store.HunkPending,
		}
	}
	return out
}
