package workspace

import (
	"html"
	"strings"
	"time"

	"pilot/backend/events"
	"pilot/backend/llm"
	"pilot/backend/store"
)

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func projectView(p store.Project) events.Project {
	return events.Project{ID: p.ID, Path: p.Path, Name: p.Name, LastOpened: millis(p.LastOpened)}
}

func sessionView(s store.Session) events.SessionSummary {
	u := s.Usage
	return events.SessionSummary{
		ID: s.ID, ProjectID: s.ProjectID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: millis(s.CreatedAt), UpdatedAt: millis(s.UpdatedAt),
		Tokens:  u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens,
		CostUSD: s.CostUSD, State: string(s.State),
	}
}

func blockView(b llm.ContentBlock) events.Block {
	v := events.Block{Type: string(b.Type), ID: b.ID, Name: b.Name, Input: b.Input, ToolUseID: b.ToolUseID, IsError: b.IsError}
	switch b.Type {
	case llm.BlockThinking:
		v.Text = b.Thinking
	case llm.BlockToolResult:
		v.Text = b.Content
	default:
		v.Text = b.Text
	}
	return v
}

func messageView(m store.Message) events.Message {
	blocks := make([]events.Block, len(m.Content))
	for i, b := range m.Content {
		blocks[i] = blockView(b)
	}
	return events.Message{ID: m.ID, Role: string(m.Role), Blocks: blocks, State: string(m.State), CreatedAt: millis(m.CreatedAt)}
}

func ruleView(r store.Rule) events.Rule {
	return events.Rule{ID: r.ID, Tool: r.Tool, Pattern: r.Pattern, Effect: string(r.Effect)}
}

// snippetHTML turns the store's «match» markers into <mark> around
// HTML-escaped text, the form the window renders.
func snippetHTML(s string) string {
	s = html.EscapeString(s)
	s = strings.ReplaceAll(s, html.EscapeString(store.MarkOpen), "<mark>")
	return strings.ReplaceAll(s, html.EscapeString(store.MarkClose), "</mark>")
}

func hitView(h store.SearchHit) events.SearchHit {
	return events.SearchHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID, Kind: string(h.Kind), Snippet: snippetHTML(h.Snippet)}
}

func toolCallView(c store.ToolCall, label string) events.ToolCall {
	return events.ToolCall{
		ID: c.ToolUseID, MessageID: c.MessageID, Name: c.Name, Label: label, Input: c.Input,
		Status: string(c.Status), Output: c.Output, IsError: c.Status == store.ToolError,
		StartedAt: millis(c.StartedAt), FinishedAt: millis(c.FinishedAt),
	}
}
