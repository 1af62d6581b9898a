package service

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/approval"
	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// reasonPage is how many of a session's last messages are read for the
// agent's words before a waiting call: the call is in the turn under way.
const reasonPage = 40

// Inbox lists every waiting decision of every session this process runs,
// of every project, oldest first, each with its session's name, branch and
// project and the agent's words before the call, and the plans waiting
// for the user (planItems). It is live state: an approval decided
// anywhere (the inbox, the session's card) leaves it.
func (a *Approvals) Inbox(ctx context.Context) ([]wire.InboxItem, error) {
	all := a.agent.Approvals().All()
	out := make([]wire.InboxItem, 0, len(all))
	bySession := map[int64][]approval.Waiting{}
	for _, w := range all {
		bySession[w.Session] = append(bySession[w.Session], w)
	}
	items := map[string]wire.InboxItem{}
	projects := map[int64]store.Project{}
	for id, ws := range bySession {
		page, err := a.store.Sessions.TranscriptPage(ctx, id, store.PageQuery{Limit: reasonPage})
		if err != nil {
			return nil, fmt.Errorf("could not read session %d for the inbox; open it from the session list instead: %w", id, err)
		}
		s := page.Session
		p, ok := projects[s.ProjectID]
		if !ok {
			if p, err = a.store.Projects.Get(ctx, s.ProjectID); err != nil {
				return nil, fmt.Errorf("could not read the project of session %d for the inbox; open it from the session list instead: %w", id, err)
			}
			projects[s.ProjectID] = p
		}
		for _, w := range ws {
			reason, request := whyAsked(page, w.Approval.ToolCallID)
			title := s.Title
			if title == "" {
				title = request // a session is named when its first turn ends
			}
			items[w.Approval.ID] = wire.InboxItem{
				Approval:    w.Approval,
				SessionID:   id,
				Title:       title,
				Branch:      s.Worktree.Branch,
				ProjectID:   p.ID,
				Project:     p.Name,
				ProjectPath: p.Path,
				Reason:      reason,
				Since:       w.Since.UnixMilli(),
			}
		}
	}
	for _, w := range all {
		out = append(out, items[w.Approval.ID])
	}
	plans, err := a.planItems(ctx)
	if err != nil {
		return nil, err
	}
	out = append(out, plans...)
	byAge(out)
	return out, nil
}

// whyAsked is the agent's latest words up to the message that made the
// call toolUseID (for a question of no call, the budget: up to the last
// message), back to the user's request ("" when it said nothing, or the
// call is not in the page), and that request's first line. The window's
// review says the same of the open session (frontend
// state/reviewReason.ts).
func whyAsked(p store.Page, toolUseID string) (reason, request string) {
	end := -1
	if toolUseID == "" {
		end = len(p.Messages) - 1
	}
	for _, c := range p.ToolCalls {
		if c.ToolUseID != toolUseID {
			continue
		}
		for i, m := range p.Messages {
			if m.ID == c.MessageID {
				end = i
			}
		}
	}
	for i := end; i >= 0; i-- {
		m := p.Messages[i]
		text := messageText(m)
		if m.Role == llm.RoleUser && (text != "" || hasBlock(m, llm.BlockImage)) {
			first, _, _ := strings.Cut(text, "\n")
			return reason, first
		}
		if m.Role == llm.RoleAssistant && text != "" && reason == "" {
			reason = text
		}
	}
	return reason, ""
}

func messageText(m store.Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == llm.BlockText && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, strings.TrimSpace(b.Text))
		}
	}
	return strings.Join(parts, "\n")
}

func hasBlock(m store.Message, t llm.BlockType) bool {
	for _, b := range m.Content {
		if b.Type == t {
			return true
		}
	}
	return false
}
