package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"pilot/backend/llm"
)

// Oversized content. A message that alone takes more than maxMessageShare
// of the model's window is refused before it is saved (it could never be
// sent with the rest of the conversation). Content that is already in the
// session (a tool input or output, an old message) and is bigger than
// maxBlockShare of the window is shortened in what is sent to the model,
// with a note saying so, and kept whole in the store: one big write_file
// must not leave a session that can never call the model again.
const (
	maxMessageShare = 0.5
	maxBlockShare   = 0.25
	// keptHead is how much of an elided text is still sent, for context.
	keptHead = 2000
)

// MessageTooLargeError refuses a message that cannot fit in the model's
// context window.
type MessageTooLargeError struct {
	Tokens, Window int
}

func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("This message is about %s tokens, too big for the model's %s-token context window (a message can take up to about %s). Attach the file with @ instead of pasting it, or send a shorter part.",
		kTokens(e.Tokens), kTokens(e.Window), kTokens(e.Limit()))
}

// Limit is the most tokens a message can take in that window.
func (e *MessageTooLargeError) Limit() int {
	return int(maxMessageShare * float64(e.Window))
}

// kTokens writes 250000 as "250k".
func kTokens(n int) string {
	if n >= 10000 {
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
	return fmt.Sprint(n)
}

// precheck refuses, before anything is saved, a message that cannot be
// sent: the session's model client cannot be made (no API key), or the
// blocks alone would not fit in the model's window. A refused first
// message leaves the session empty (see Workspace.dropEmpty).
func (m *Manager) precheck(ctx context.Context, sessionID int64, blocks []llm.ContentBlock) error {
	sess, err := m.st.Sessions.Get(ctx, sessionID)
	if err != nil {
		return err
	}
	p, err := m.provider(ctx, sess)
	if err != nil {
		return err
	}
	window, _ := m.window(p.facts(sess.Model))
	return checkSize(blocks, window)
}

// checkSize refuses blocks that alone take more than maxMessageShare of
// the window.
func checkSize(blocks []llm.ContentBlock, window int) error {
	tokens := estimate([]llm.Message{{Role: llm.RoleUser, Content: blocks}})
	if tokens > int(maxMessageShare*float64(window)) {
		return &MessageTooLargeError{Tokens: tokens, Window: window}
	}
	return nil
}

// elideOversized returns the block as it is sent: a text, tool input or
// tool output over limit characters is cut to its beginning and a note.
// Tool inputs stay JSON objects: each string field over the limit is cut.
func elideOversized(b llm.ContentBlock, limit int) llm.ContentBlock {
	if limit <= 0 {
		return b
	}
	switch {
	case b.Type == llm.BlockText && len(b.Text) > limit:
		b.Text = cutNote(b.Text, "this message")
	case b.Type == llm.BlockToolResult && len(b.Content) > limit:
		b.Content = cutNote(b.Content, "this tool output")
	case b.Type == llm.BlockToolUse && len(b.Input) > limit:
		var fields map[string]any
		if json.Unmarshal(b.Input, &fields) != nil {
			break
		}
		for k, v := range fields {
			if s, ok := v.(string); ok && len(s) > keptHead {
				fields[k] = cutNote(s, "the "+k+" field")
			}
		}
		if raw, err := json.Marshal(fields); err == nil {
			b.Input = raw
		}
	}
	return b
}

// cutNote keeps the start of s and says what was left out.
func cutNote(s, what string) string {
	head := s[:keptHead]
	for len(head) > 0 && !validEnd(head) {
		head = head[:len(head)-1]
	}
	return fmt.Sprintf("%s\n[Pilot: %s was %d characters, too big for the context window; the rest (%d characters) is left out of what the model sees and kept whole in the session.]",
		head, what, len(s), len(s)-len(head))
}

// validEnd reports whether s does not end inside a UTF-8 sequence.
func validEnd(s string) bool {
	for i := len(s) - 1; i >= 0 && i >= len(s)-4; i-- {
		c := s[i]
		if c < 0x80 {
			return true
		}
		if c >= 0xC0 { // a leading byte: the sequence must be complete
			need := 2
			if c >= 0xE0 {
				need = 3
			}
			if c >= 0xF0 {
				need = 4
			}
			return len(s)-i == need
		}
	}
	return false
}

// logError logs a failure the user is shown, with what the provider said
// about it: its name, the HTTP status, the request id it gave, the kind.
// The logger redacts keys.
func (m *Manager) logError(what string, sessionID int64, err error) {
	attrs := []any{"session", sessionID, "err", err.Error()}
	var le *llm.Error
	if errors.As(err, &le) {
		attrs = append(attrs, "provider", le.Provider, "host", le.Host, "status", le.Status, "kind", string(le.Kind),
			"request_id", le.RequestID, "attempts", le.Attempts)
		if le.Type != "" {
			attrs = append(attrs, "type", le.Type)
		}
	}
	m.log.Warn(what, attrs...)
}
