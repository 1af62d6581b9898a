// Package present turns stored records into the values of backend/wire that
// the window renders. The agent (for events) and the service (for bound
// methods) both use it, so a message looks the same either way.
package present

import (
	"encoding/json"
	"html"
	"strings"
	"time"

	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Millis is t in Unix milliseconds; 0 for the zero time.
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Project is a project row.
func Project(p store.Project) wire.Project {
	return wire.Project{ID: p.ID, Path: p.Path, Name: p.Name, LastOpened: Millis(p.LastOpened)}
}

// Session is a session's row in the list.
func Session(s store.Session) wire.SessionSummary {
	u := s.Usage
	return wire.SessionSummary{
		ID: s.ID, ProjectID: s.ProjectID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: Millis(s.CreatedAt), UpdatedAt: Millis(s.UpdatedAt),
		Tokens:  u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheWriteTokens,
		CostUSD: s.CostUSD, State: wire.SessionState(s.State), ApprovalMode: wire.ApprovalMode(s.ApprovalMode),
		Branch: s.Worktree.Branch, Worktree: s.Worktree.Path, WorktreeDiscarded: s.Worktree.Discarded,
	}
}

// Block is one content block as the window shows it.
func Block(b llm.ContentBlock) wire.Block {
	v := wire.Block{Type: wire.BlockType(b.Type)}
	switch b.Type {
	case llm.BlockText:
		v.Text, v.Command = b.Text, b.Command
		for _, c := range llm.Citations(b) {
			v.Sources = append(v.Sources, wire.Source{Title: c.Title, URL: c.URL, Cited: c.Cited})
		}
	case llm.BlockServerToolUse: // the provider's own search: its card (a web_search call) stands here
		v.Type, v.ID, v.Name, v.Input = wire.BlockToolUse, b.ID, b.Name, b.Input
	case llm.BlockThinking:
		v.Text = b.Thinking
	case llm.BlockToolUse:
		v.ID, v.Name, v.Input = b.ID, b.Name, b.Input
	case llm.BlockToolResult:
		v.ToolUseID, v.Text, v.IsError = b.ToolUseID, b.Content, b.IsError
		for _, img := range b.Images {
			v.Images = append(v.Images, Block(img))
		}
	case llm.BlockImage:
		v.Hash, v.MediaType = b.Hash, b.MediaType
	}
	return v
}

// Message is a stored message. Redacted thinking is left out: it is
// encrypted, there is nothing to show; so are the provider's search
// results, which its card shows.
func Message(m store.Message) wire.Message {
	v := wire.Message{ID: m.ID, Role: wire.Role(m.Role), State: wire.MessageState(m.State), CreatedAt: Millis(m.CreatedAt), Blocks: make([]wire.Block, 0, len(m.Content))}
	for _, b := range m.Content {
		if b.Type != llm.BlockRedactedThinking && b.Type != llm.BlockWebSearchResult {
			v.Blocks = append(v.Blocks, Block(b))
		}
	}
	return v
}

// ToolCall is a stored tool call's card; label is its progress line. It is
// the one builder of cards: the service shows stored calls with it, and the
// agent builds a live card with it from the row it has just inserted, then
// writes the call's end onto it with End, so a card looks the same live
// and after a reload.
func ToolCall(c store.ToolCall, label string) wire.ToolCall {
	v := wire.ToolCall{
		ID: c.ToolUseID, MessageID: c.MessageID, ParentID: c.ParentToolUseID, Name: c.Name, Label: label, Input: c.Input,
		StartedAt: Millis(c.StartedAt), Sandbox: Sandbox(c.Sandbox), Hooks: Hooks(c.Hooks),
		Diagnostics: Diagnostics(c.Diagnostics), Instructions: Instructions(c.Instructions),
		Elicitations: listOf[wire.Elicitation](c.Elicitations),
	}
	End(&v, c.Status, c.Output, c.Status == wire.ToolError, refusedOf(c, v.Hooks), c.FinishedAt)
	return v
}

// Instructions reads a stored store.ToolCall.Instructions; nil when the
// call brought in none (or it cannot be read).
func Instructions(stored string) []string { return listOf[string](stored) }

// listOf reads a stored JSON list; nil when empty (or it cannot be read).
func listOf[T any](stored string) []T {
	if p := fromJSON[[]T](stored); p != nil {
		return *p
	}
	return nil
}

// Hooks reads a stored store.ToolCall.Hooks; nil when none ran (or it
// cannot be read).
func Hooks(stored string) []wire.HookRun {
	if stored == "" {
		return nil
	}
	var v []wire.HookRun
	if json.Unmarshal([]byte(stored), &v) != nil {
		return nil
	}
	return v
}

// refusedOf is who refused a stored call, as End takes it: its refused_by,
// or, for a rejected call none is stored for, the PreToolUse hook that
// denied it ("hook CMD": the store's refused_by predates hooks).
func refusedOf(c store.ToolCall, runs []wire.HookRun) string {
	if c.RefusedBy != "" || c.Status != wire.ToolRejected {
		return c.RefusedBy
	}
	for _, r := range runs {
		if r.Event == "PreToolUse" && r.Decision == wire.HookDeny {
			return string(wire.RefusedByHook) + " " + r.Hook
		}
	}
	return ""
}

// End writes a call's end onto its card: its status, output, whether it
// failed, who refused it (as stored in store.ToolCall.RefusedBy) and when
// it finished (zero: not yet).
func End(v *wire.ToolCall, status wire.ToolStatus, output string, isError bool, refusedBy string, at time.Time) {
	v.Status, v.Output, v.IsError = wire.ToolStatus(status), output, isError
	v.RefusedBy, v.RefusedRule = refuser(refusedBy)
	v.FinishedAt = Millis(at)
}

// Diagnostics reads a stored store.ToolCall.Diagnostics; nil when no
// language server checked the call's change (or it cannot be read).
func Diagnostics(stored string) *wire.Diagnostics { return fromJSON[wire.Diagnostics](stored) }

// Sandbox reads a stored store.ToolCall.Sandbox; nil when there is none
// (or it cannot be read: the card then shows no sandbox line).
func Sandbox(stored string) *wire.SandboxInfo { return fromJSON[wire.SandboxInfo](stored) }

// fromJSON reads a call's stored JSON column; nil when it is empty or
// cannot be read.
func fromJSON[T any](stored string) *T {
	if stored == "" {
		return nil
	}
	var v T
	if json.Unmarshal([]byte(stored), &v) != nil {
		return nil
	}
	return &v
}

// refuser splits a stored store.ToolCall.RefusedBy into who refused and
// the deny rule, if one is named ("rule Bash(rm *)" is rule, "Bash(rm *)").
func refuser(stored string) (wire.RefusedBy, string) {
	by, rule, _ := strings.Cut(stored, " ")
	return wire.RefusedBy(by), rule
}

// Rule is a permission rule.
func Rule(r store.Rule) wire.Rule {
	return wire.Rule{ID: r.ID, Tool: r.Tool, Pattern: r.Pattern, Effect: wire.RuleEffect(r.Effect)}
}

// SearchHit is a search result with its snippet as HTML: the text escaped
// and the store's «match» markers turned into <mark>.
func SearchHit(h store.SearchHit) wire.SearchHit {
	s := html.EscapeString(h.Snippet)
	s = strings.ReplaceAll(s, html.EscapeString(store.MarkOpen), "<mark>")
	s = strings.ReplaceAll(s, html.EscapeString(store.MarkClose), "</mark>")
	return wire.SearchHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID, Kind: wire.SearchHitKind(h.Kind), Snippet: s}
}
