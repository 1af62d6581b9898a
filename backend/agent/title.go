package agent

import (
	"context"
	"time"

	"pilot/backend/llm"
	"pilot/backend/present"
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
	sess, err := l.m.st.Session(ctx, l.id)
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
	title, err := l.m.st.AutoTitle(ctx, l.id, complete)
	if err != nil {
		l.m.log.Warn("session title", "session", l.id, "err", err)
		return
	}
	if used != (llm.Usage{}) {
		cost, _ := llm.Cost(sess.Model, used)
		if err := l.m.st.UpdateUsage(ctx, l.id, used, cost); err != nil {
			l.m.log.Warn("title usage", "session", l.id, "err", err)
		}
	}
	if title == sess.Title {
		return
	}
	if sess, err = l.m.st.Session(ctx, l.id); err == nil {
		l.m.out.global(wire.SessionUpdated, wire.SessionPayload{Session: present.Session(sess)})
	}
}
