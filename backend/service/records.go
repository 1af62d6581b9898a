package service

import (
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// The stored records as the command line prints them with --json
// (backend/wire/cli.go): every stored field, as stored.

func sessionRecord(s store.Session) wire.SessionRecord {
	return wire.SessionRecord{
		ID: s.ID, ProjectID: s.ProjectID, Title: s.Title, Provider: s.Provider, Model: s.Model,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Usage: tokenCount(s.Usage), CostUSD: s.CostUSD,
		State: string(s.State), ParentSessionID: s.ParentSessionID, ParentMessageID: s.ParentMessageID,
		ApprovalMode: s.ApprovalMode, BudgetUSD: s.BudgetUSD,
		Worktree: wire.WorktreeRecord{Path: s.Worktree.Path, Branch: s.Worktree.Branch, Base: s.Worktree.Base, Discarded: s.Worktree.Discarded},
	}
}

func searchRecord(h store.SearchHit) wire.SearchRecord {
	return wire.SearchRecord{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID,
		Kind: string(h.Kind), Snippet: h.Snippet, Score: h.Score}
}

func tokenCount(u llm.Usage) wire.TokenCount {
	return wire.TokenCount{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
}

func transcript(t store.Transcript) wire.Transcript {
	p := t.Project
	out := wire.Transcript{
		Project:   wire.ProjectRecord{ID: p.ID, Path: p.Path, Name: p.Name, CreatedAt: p.CreatedAt, LastOpened: p.LastOpened},
		Session:   sessionRecord(t.Session),
		Messages:  make([]wire.MessageRecord, len(t.Messages)),
		ToolCalls: make([]wire.CallRecord, len(t.ToolCalls)),
		Changes:   make([]wire.ChangeRecord, len(t.Changes)),
		Comments:  t.Comments,
	}
	if t.Messages == nil {
		out.Messages = nil
	}
	if t.ToolCalls == nil {
		out.ToolCalls = nil
	}
	if t.Changes == nil {
		out.Changes = nil
	}
	for i, m := range t.Messages {
		out.Messages[i] = wire.MessageRecord{ID: m.ID, SessionID: m.SessionID, Seq: m.Seq, Role: string(m.Role),
			Content: m.Content, Usage: tokenCount(m.Usage), State: string(m.State), CreatedAt: m.CreatedAt}
	}
	for i, c := range t.ToolCalls {
		out.ToolCalls[i] = wire.CallRecord{ID: c.ID, SessionID: c.SessionID, MessageID: c.MessageID, ToolUseID: c.ToolUseID,
			Name: c.Name, Input: c.Input, Output: c.Output, Status: string(c.Status), Approval: string(c.Approval),
			Feedback: c.Feedback, StartedAt: c.StartedAt, FinishedAt: c.FinishedAt, ParentToolUseID: c.ParentToolUseID,
			RefusedBy: c.RefusedBy, Sandbox: c.Sandbox, Hooks: c.Hooks, Diagnostics: c.Diagnostics, Instructions: c.Instructions, Elicitations: c.Elicitations}
	}
	for i, c := range t.Changes {
		var hunks []wire.HunkRecord
		if c.Hunks != nil {
			hunks = make([]wire.HunkRecord, len(c.Hunks))
		}
		for j, h := range c.Hunks {
			hunks[j] = wire.HunkRecord{Header: h.Header, Text: h.Text, Decision: string(h.Decision)}
		}
		out.Changes[i] = wire.ChangeRecord{ID: c.ID, ToolCallID: c.ToolCallID, Path: c.Path, OldHash: c.OldHash,
			NewHash: c.NewHash, Hunks: hunks, UserEdited: c.UserEdited, Applied: c.Applied, CreatedAt: c.CreatedAt}
	}
	if s := t.Summary; s != nil {
		out.Summary = &wire.SummaryRecord{SessionID: s.SessionID, Text: s.Text, KeepID: s.KeepID, CreatedAt: s.CreatedAt}
	}
	return out
}
