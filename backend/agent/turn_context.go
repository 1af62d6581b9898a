package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
	n := t.contextTokens()
	t.warnLoaded(n)
	if n <= limit {
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
	if n > 0 {
		l.nested.forget()
	}
	return n
}

const (
	summaryMaxTokens = 2048
	// maxRenderedOutput caps each tool output shown to the summariser.
	maxRenderedOutput = 1500
)

const summarySystem = `You compact the history of a coding session between a user and a coding agent so the agent can continue the work with less context. Write a dense summary in Markdown: the user's goals and constraints, decisions made, files read and changed (with paths and what changed), commands run and their outcome, changes the user rejected and why, open problems and next steps. Keep exact names, paths, identifiers and error messages. Do not add anything that is not in the history.`

// CompactNow summarises the session's older turns. While a turn runs, the
// compaction happens before its next model call; otherwise it happens now
// and returns when done.
func (m *Manager) CompactNow(ctx context.Context, sessionID int64) error {
	l, err := m.live(ctx, sessionID)
	if err != nil {
		return err
	}
	tctx, err := m.begin(l)
	if errors.Is(err, ErrBusy) {
		l.mu.Lock()
		l.compact = true
		l.mu.Unlock()
		return nil
	}
	if err != nil {
		return err
	}
	defer m.turns.Done()
	stop := context.AfterFunc(ctx, func() { m.Cancel(sessionID) })
	defer stop()

	l.setState(Streaming)
	l.loadHooks() // as a turn does: the PreCompact hooks as the files are now
	t, err := l.load(context.WithoutCancel(tctx))
	if err == nil {
		err = t.compact(tctx, "Compacted as you asked", true)
	}
	l.mu.Lock()
	l.cancel()
	l.cancel = nil
	l.mu.Unlock()
	l.setState(Idle)
	if err != nil {
		m.logError("compaction failed", sessionID, err)
	}
	return err
}

// compact summarises the turns between the first user message and the
// recent ones with the model.
func (t *turn) compact(ctx context.Context, why string, forced bool) error {
	l := t.l
	t.preCompact(ctx, forced)
	start := 1
	l.mu.Lock()
	prev := l.summary
	l.mu.Unlock()
	if prev != nil {
		for i, m := range t.history {
			if m.ID == prev.keep {
				start = i
			}
		}
	}
	cut := t.cutPoint(start, forced)
	if cut <= start {
		return ErrNothingToCompact
	}
	var b strings.Builder
	if prev != nil {
		b.WriteString("## Summary of the earlier part\n\n" + prev.text + "\n\n## What followed\n\n")
	}
	renderHistory(&b, t.history[start:cut], int(keepRecent*float64(t.window))*charsPerToken)
	first := t.history[0].LLM()
	req := llm.Request{
		Model:     t.model,
		System:    summarySystem,
		MaxTokens: summaryMaxTokens,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(
			"The session began with this request from the user:\n\n" + textOf(first) +
				"\n\nSummarise this part of the session that followed:\n\n" + b.String())}}},
	}
	text, u, err := t.p.Complete(ctx, req)
	if err != nil {
		return fmt.Errorf("Compacting the conversation failed: %w", err)
	}
	t.account(context.WithoutCancel(ctx), u, 0)
	if strings.TrimSpace(text) == "" {
		return errors.New("Compacting the conversation failed: the model returned an empty summary. Try again, or start a new session.")
	}
	sum := &summary{text: strings.TrimSpace(text), keep: t.history[cut].ID}
	l.mu.Lock()
	l.summary = sum
	l.mu.Unlock()
	l.nested.forget()
	// Saved, a restarted Pilot sends the same request; unsaved, the
	// summary still serves until then.
	if _, err := l.m.st.Messages.SaveSummary(context.WithoutCancel(ctx), l.id, sum.text, sum.keep); err != nil {
		l.m.log.Warn("saving the summary", "session", l.id, "err", err)
	}
	l.notice("compacted", fmt.Sprintf("%s: %d older messages were summarised.", why, cut-start), 0)
	return nil
}

// cutPoint returns the index of the first message kept verbatim: the
// recent messages that fit in keepRecent of the window, starting at an
// assistant message or a user message that is not tool results, so no
// tool_use loses its result. When even the last turn is bigger than that,
// only the last boundary is kept. A forced compaction (asked for, or after
// the provider said the context is too long) keeps only the last
// exchange.
func (t *turn) cutPoint(start int, forced bool) int {
	budget := int(keepRecent * float64(t.window))
	h := t.history
	boundary := func(i int) bool {
		if h[i].Role == llm.RoleAssistant {
			return true
		}
		for _, b := range h[i].Content {
			if b.Type == llm.BlockToolResult {
				return false
			}
		}
		return true
	}
	last := -1
	for i := len(h) - 1; i > start; i-- {
		if boundary(i) {
			last = i
			break
		}
	}
	if last < 0 {
		return start
	}
	if forced {
		for i := len(h) - 1; i > start; i-- {
			if h[i].Role == llm.RoleUser && boundary(i) {
				return i
			}
		}
		return last
	}
	used, cut := 0, last
	for i := len(h) - 1; i > start; i-- {
		used += estimate([]llm.Message{h[i].LLM()})
		if used > budget {
			break
		}
		if boundary(i) {
			cut = i
		}
	}
	return cut
}

// renderHistory writes messages as a plain transcript for the
// summariser, at most limit characters (the oldest are dropped first).
func renderHistory(b *strings.Builder, msgs []store.Message, limit int) {
	var parts []string
	for _, m := range msgs {
		var p strings.Builder
		for _, c := range m.Content {
			switch c.Type {
			case llm.BlockText:
				fmt.Fprintf(&p, "**%s:** %s\n\n", m.Role, c.Text)
			case llm.BlockToolUse:
				fmt.Fprintf(&p, "**tool call** %s %s\n\n", c.Name, c.Input)
			case llm.BlockToolResult:
				out := c.Content
				if len(out) > maxRenderedOutput {
					out = out[:maxRenderedOutput] + fmt.Sprintf("\n[... %d more characters]", len(c.Content)-maxRenderedOutput)
				}
				label := "tool result"
				if c.IsError {
					label = "tool result (error)"
				}
				fmt.Fprintf(&p, "**%s:**\n%s\n\n", label, out)
			}
		}
		parts = append(parts, p.String())
	}
	total := 0
	from := len(parts)
	for from > 0 && total+len(parts[from-1]) <= limit {
		from--
		total += len(parts[from])
	}
	if from > 0 {
		fmt.Fprintf(b, "[%d older messages left out]\n\n", from)
	}
	for _, p := range parts[from:] {
		b.WriteString(p)
	}
}

func textOf(m llm.Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
