package store

import (
	"context"
	"strings"
	"unicode/utf8"

	"pilot/backend/llm"
)

// maxTitle is the longest title, in characters.
const maxTitle = 60

// titlePrompt asks the model for a title; the conversation follows it.
const titlePrompt = "Write a title of at most six words for the conversation below. " +
	"Reply with the title only: no quotes, no final period.\n\n"

// AutoTitle gives a session a short title made from its first exchange by
// complete (a cheap model call that returns the answer's text), and sets
// it. When complete is nil, fails or answers nothing usable, the title is
// the first line of the first user message. It returns the title set.
func (s *Store) AutoTitle(ctx context.Context, sessionID int64, complete func(ctx context.Context, prompt string) (string, error)) (string, error) {
	ms, err := s.Messages(ctx, sessionID)
	if err != nil {
		return "", err
	}
	var user, assistant string
	for _, m := range ms {
		text := messageText(m.Content)
		switch {
		case text == "":
		case m.Role == llm.RoleUser && user == "":
			user = text
		case m.Role == llm.RoleAssistant && user != "" && assistant == "":
			assistant = text
		}
	}
	title := ""
	if complete != nil && user != "" {
		prompt := titlePrompt + "User: " + clip(user, 2000) + "\n\nAssistant: " + clip(assistant, 2000)
		if answer, err := complete(ctx, prompt); err == nil {
			title = cleanTitle(answer)
		}
	}
	if title == "" {
		title = cleanTitle(user)
	}
	if title == "" {
		return "", nil
	}
	return title, s.Rename(ctx, sessionID, title)
}

// messageText joins a message's text blocks.
func messageText(blocks []llm.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == llm.BlockText && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// cleanTitle keeps the first non-empty line, without quotes, Markdown
// heading marks or a final period, cut to maxTitle characters at a word.
func cleanTitle(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "#*> ")
		line = strings.TrimPrefix(line, "Title:")
		line = strings.Trim(strings.TrimSpace(line), "\"'`*“”")
		line = strings.TrimRight(line, ". ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) <= maxTitle {
			return line
		}
		cut := clip(line, maxTitle-1)
		if i := strings.LastIndexByte(cut, ' '); i > maxTitle/2 {
			cut = cut[:i]
		}
		return strings.TrimRight(cut, " ,;:-") + "…"
	}
	return ""
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
