package agent

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"pilot/backend/llm"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// titleTimeout bounds the model call that names a session.
const titleTimeout = 30 * time.Second

// modelTitle asks the model for a short title of the session's first
// exchange and sets it, replacing the plain one; its tokens count towards
// the session. A failure keeps the plain title.
func (l *live) modelTitle() {
	ctx, cancel := context.WithTimeout(l.m.base, titleTimeout)
	defer cancel()
	sess, err := l.m.st.Sessions.Get(ctx, l.id)
	if err != nil {
		return
	}
	p, err := l.m.provider(ctx, sess)
	if err != nil {
		return
	}
	var used llm.Usage
	complete := func(ctx context.Context, prompt string) (string, error) {
		text, u, err := p.Complete(ctx, llm.Request{
			Model:     sess.Model,
			Messages:  []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(prompt)}}},
			MaxTokens: 40,
		})
		used = u
		return text, err
	}
	title, err := autoTitle(ctx, l.m.st, l.id, complete)
	if err != nil {
		l.m.log.Warn("session title", "session", l.id, "err", err)
		return
	}
	if used != (llm.Usage{}) {
		cost, _ := p.facts(sess.Model).Cost(used)
		if err := l.m.st.Sessions.UpdateUsage(ctx, l.id, used, cost); err != nil {
			l.m.log.Warn("title usage", "session", l.id, "err", err)
		}
	}
	if title == sess.Title {
		return
	}
	if sess, err = l.m.st.Sessions.Get(ctx, l.id); err == nil {
		l.m.out.global(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(sess)})
	}
}

// maxTitle is the longest title, in characters.
const maxTitle = 60

// titlePrompt asks the model for a title; the conversation follows it.
const titlePrompt = "Write a title of at most six words for the conversation below. " +
	"Reply with the title only: no quotes, no final period.\n\n"

// autoTitle gives a session a short title made from its first exchange by
// complete (a cheap model call that returns the answer's text), and sets
// it. When complete is nil, fails or answers nothing usable, the title is
// the first line of the first user message. It returns the title set.
func autoTitle(ctx context.Context, st *store.Store, sessionID int64, complete func(ctx context.Context, prompt string) (string, error)) (string, error) {
	ms, err := st.Messages.List(ctx, sessionID)
	if err != nil {
		return "", err
	}
	var user, assistant string
	for _, m := range ms {
		text := llm.JoinText(m.Content)
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
	return title, st.Sessions.Rename(ctx, sessionID, title)
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
