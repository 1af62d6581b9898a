package agent

import (
	"context"
	"errors"
	"fmt"

	"pilot/backend/llm"
	"pilot/backend/store"
)

// Context management. The history sent to the model is a view of the
// stored one: outputs of old tool calls may be elided, and older turns may
// be replaced by a summary. When the estimated size of a request passes
// compactAt of the model's window, the oldest tool outputs are elided
// until it is under elideTo; if that is not enough, older turns are
// summarised by the model.
const (
	compactAt = 0.80
	elideTo   = 0.60
	// keepRecent is the share of the window kept verbatim after a summary.
	keepRecent = 0.30
	// recentMessages are never elided: the model is working with them.
	recentMessages = 4
	charsPerToken  = 4
)

// elidedOutput replaces a tool output that was dropped from the context.
const elidedOutput = "[output elided to save context (%d characters); run the tool again if you need it]"

// summary replaces the messages between the first user message and keep.
type summary struct {
	text string
	keep int64 // id of the first message kept verbatim
}

// view returns the history as it is sent: the summary in place of the
// turns it covers, elided outputs replaced, oversized content cut (see
// elideOversized; window is the model's, in tokens), consecutive messages
// of the same role merged (an interrupted answer that was removed leaves
// two user messages in a row).
func (l *live) view(history []store.Message, window int) []llm.Message {
	limit := int(maxBlockShare * float64(window) * charsPerToken)
	l.mu.Lock()
	sum, elided := l.summary, l.elided
	l.mu.Unlock()
	msgs := history
	var out []llm.Message
	if sum != nil && len(history) > 0 {
		for i, m := range history {
			if m.ID == sum.keep && i > 0 {
				first := history[0].LLM()
				first.Content = append(append([]llm.ContentBlock(nil), first.Content...),
					llm.TextBlock("Summary of the conversation so far (older turns were compacted):\n\n"+sum.text))
				out = append(out, first)
				msgs = history[i:]
				break
			}
		}
	}
	for _, m := range msgs {
		lm := m.LLM()
		lm.Content = append([]llm.ContentBlock(nil), lm.Content...)
		for j, b := range lm.Content {
			if b.Type == llm.BlockToolResult && elided[b.ToolUseID] {
				lm.Content[j].Content = fmt.Sprintf(elidedOutput, len(b.Content))
				continue
			}
			lm.Content[j] = elideOversized(b, limit)
		}
		if n := len(out); n > 0 && out[n-1].Role == lm.Role {
			out[n-1].Content = append(append([]llm.ContentBlock(nil), out[n-1].Content...), lm.Content...)
			continue
		}
		out = append(out, lm)
	}
	return out
}

// estimate counts the characters of messages in tokens.
func estimate(msgs []llm.Message) int {
	n, images := 0, 0
	for _, m := range msgs {
		for _, b := range m.Content {
			n += len(b.Text) + len(b.Thinking) + len(b.Input) + len(b.Content) + len(b.Name) + 16
			images += len(b.Images)
			if b.Type == llm.BlockImage {
				images++
			}
		}
	}
	return n/charsPerToken + images*imageTokens
}

// imageTokens is what an image is counted as: Anthropic's estimate for a
// 1092x1092 image, (w*h)/750 ≈ 1,600 tokens, the size it scales larger
// ones down to (https://docs.anthropic.com/en/docs/build-with-claude/vision).
const imageTokens = 1600

func estimateRequest(r llm.Request) int {
	n := estimate(r.Messages) + len(r.System)/charsPerToken
	for _, d := range r.Tools {
		n += (len(d.Description) + len(d.InputSchema)) / charsPerToken
	}
	return n
}

// contextTokens estimates the size of the next request in the provider's
// tokens.
func (t *turn) contextTokens() int {
	t.l.mu.Lock()
	calib := t.l.calib
	t.l.mu.Unlock()
	return int(float64(estimateRequest(t.requestOf(t.l.view(t.history, t.window)))) * calib) // images counted, not read
}

// fit makes the next request fit the window: elision first, then a
// summary; and a compaction the user asked for.
func (t *turn) fit(ctx context.Context) error {
	l := t.l
	l.mu.Lock()
	asked := l.compact
	l.compact = false
	l.mu.Unlock()
	if asked {
		return t.compact(ctx, "Compacted as you asked", true)
	}
	limit := int(compactAt * float64(t.window))
	if t.contextTokens() <= limit {
		return nil
	}
	if n := t.elide(int(elideTo * float64(t.window))); n > 0 {
		l.notice("compacted", fmt.Sprintf("The conversation neared the model's context window: the output of %d older tool calls was left out.", n), 0)
		if t.contextTokens() <= limit {
			return nil
		}
	}
	err := t.compact(ctx, "The conversation neared the model's context window", false)
	if errors.Is(err, ErrNothingToCompact) {
		// Nothing older to summarise: the request is sent as it is
		// (oversized content is already cut) and the model's answer says
		// whether it fits.
		return nil
	}
	return err
}

// elide drops the outputs of the oldest tool calls until the request is
// under target tokens or nothing old is left; it returns how many it
// dropped.
func (t *turn) elide(target int) int {
	l := t.l
	n := 0
	for i := 0; i < len(t.history)-recentMessages && t.contextTokens() > target; i++ {
		for _, b := range t.history[i].Content {
			if b.Type != llm.BlockToolResult || len(b.Content) < 200 {
				continue
			}
			l.mu.Lock()
			if l.elided == nil {
				l.elided = map[string]bool{}
			}
			if !l.elided[b.ToolUseID] {
				l.elided[b.ToolUseID] = true
				n++
			}
			l.mu.Unlock()
		}
	}
	return n
}
