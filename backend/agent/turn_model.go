package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"pilot/backend/llm"
	"pilot/backend/modelfacts"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// answer is one committed model answer.
type answer struct {
	msg   store.Message
	uses  []llm.ContentBlock // its tool_use blocks, in order
	bad   map[string]badCall // tool_use id -> a call whose input is unusable
	usage llm.Usage
	stop  llm.StopReason
	why   string // the provider's explanation of a refusal
}

// assembler builds an answer's content blocks from stream events.
type assembler struct {
	blocks []llm.ContentBlock
	bufs   []*strings.Builder // text or thinking of blocks[i], set by finish
	text   strings.Builder    // every text delta so far, for the debounced save
	bad    map[string]badCall
}

// badCall is a tool call whose input cannot be used: why, and what the
// model sent (its name and input as they came; the history keeps {}).
type badCall struct {
	why        string
	name, sent string
}

// last returns the builder of the last block if it has type t, else of a
// new block of type t.
func (a *assembler) last(t llm.BlockType) (*llm.ContentBlock, *strings.Builder) {
	if n := len(a.blocks); n > 0 && a.blocks[n-1].Type == t {
		return &a.blocks[n-1], a.bufs[n-1]
	}
	return a.add(llm.ContentBlock{Type: t})
}

// add appends a block and returns it with its builder.
func (a *assembler) add(b llm.ContentBlock) (*llm.ContentBlock, *strings.Builder) {
	a.blocks = append(a.blocks, b)
	a.bufs = append(a.bufs, &strings.Builder{})
	return &a.blocks[len(a.blocks)-1], a.bufs[len(a.bufs)-1]
}

// finish moves the gathered text into the blocks.
func (a *assembler) finish() {
	for i, b := range a.bufs {
		switch a.blocks[i].Type {
		case llm.BlockText:
			a.blocks[i].Text = b.String()
		case llm.BlockThinking:
			a.blocks[i].Thinking = b.String()
		}
	}
}

// thinking adds a thinking delta. An OpenAI-compatible server's reasoning
// keeps the field it came in and its host: the client sends it back there
// only.
func (a *assembler) thinking(ev llm.Event) {
	b, buf := a.last(llm.BlockThinking)
	if ev.Field != b.Field || ev.Origin != b.Origin {
		if buf.Len() > 0 || b.Signature != "" {
			b, buf = a.add(llm.ContentBlock{Type: llm.BlockThinking})
		}
		b.Field, b.Origin = ev.Field, ev.Origin
	}
	buf.WriteString(ev.Text)
	if ev.Signature != "" {
		b.Signature = ev.Signature
	}
}

func (a *assembler) tool(id, name string) *llm.ContentBlock {
	for i := range a.blocks {
		if a.blocks[i].Type == llm.BlockToolUse && a.blocks[i].ID == id {
			return &a.blocks[i]
		}
	}
	b, _ := a.add(llm.ContentBlock{Type: llm.BlockToolUse, ID: id, Name: name})
	return b
}

// done records a finished tool call; unusable input becomes {} in the
// history (providers refuse anything else) and its reason is kept for the
// tool result.
// take adds what an answer's own events make of it: redacted thinking, a
// tool call's start and end, and the provider's own search (its blocks, a
// cited text block of its own, the citations); false for any other event.
func (a *assembler) take(ev llm.Event) bool {
	switch ev.Type {
	case llm.EventRedactedThinking:
		a.add(llm.ContentBlock{Type: llm.BlockRedactedThinking, Data: ev.Text})
	case llm.EventToolStart:
		a.tool(ev.ToolID, ev.ToolName)
	case llm.EventToolDone:
		a.done(ev)
	case llm.EventServerBlock:
		a.add(*ev.Block)
	case llm.EventTextBlock:
		if n := len(a.blocks); n == 0 || a.blocks[n-1].Type != llm.BlockText || a.bufs[n-1].Len() > 0 || len(a.blocks[n-1].Citations) > 0 {
			a.add(llm.ContentBlock{Type: llm.BlockText})
		}
	case llm.EventCitation:
		b, _ := a.last(llm.BlockText)
		b.Citations = append(b.Citations, json.RawMessage(ev.Text))
	default:
		return false
	}
	return true
}

func (a *assembler) done(ev llm.Event) {
	b := a.tool(ev.ToolID, ev.ToolName)
	if b.Name == "" {
		b.Name = ev.ToolName
	}
	input := json.RawMessage(ev.Input)
	reason := ""
	switch {
	case ev.Err != nil:
		reason = ev.Err.Error()
	case !json.Valid(input) || !isObject(input):
		reason = "the tool input is not a JSON object"
	case jsonDepth(input) > maxInputDepth:
		reason = fmt.Sprintf("the tool input is nested more than %d levels deep", maxInputDepth)
	}
	if b.Name == "" {
		// The store and the providers need a name; the result tells
		// the model what was wrong.
		b.Name = unnamedTool
		reason = noToolName
	}
	if reason != "" {
		if a.bad == nil {
			a.bad = map[string]badCall{}
		}
		a.bad[ev.ToolID] = badCall{why: reason, name: ev.ToolName, sent: string(ev.Input)}
		input = json.RawMessage("{}")
	}
	b.Input = input
}

const (
	// maxInputDepth bounds the nesting of a tool input: no tool's schema
	// comes near it, and SQLite's JSON functions refuse more than 1000.
	maxInputDepth = 64
	// unnamedTool stands for the name of a call that named no tool.
	unnamedTool = "unnamed_tool"
	// noToolName is the reason given for such a call.
	noToolName = "the call named no tool"
)

// jsonDepth is how deeply objects and arrays nest in valid JSON.
func jsonDepth(b []byte) int {
	depth, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}

func isObject(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return strings.HasPrefix(s, "{")
}

// call streams one model answer, saving and emitting it as it arrives,
// and commits it. A cancelled or failed call keeps the text received as an
// interrupted message.
func (t *turn) call(ctx context.Context) (answer, error) {
	l := t.l
	bg := context.WithoutCancel(ctx)
	req := t.request()
	req.WebSearch = t.nativeSearch(ctx)
	t.noticeMCP(req.Tools)
	est := estimateRequest(req)
	stream, err := l.m.st.Messages.BeginStream(bg, l.id)
	if err != nil {
		return answer{}, fmt.Errorf("saving the answer: %w", err)
	}
	ch, err := t.p.Stream(ctx, req)
	if err != nil {
		_ = stream.Interrupt()
		return answer{}, err
	}
	var (
		a     assembler
		usage llm.Usage
		stop  llm.StopReason
		why   string
		fail  error
	)
	for ev := range ch {
		if a.take(ev) {
			continue
		}
		switch ev.Type {
		case llm.EventTextDelta:
			if ev.Text == "" {
				continue
			}
			_, buf := a.last(llm.BlockText)
			buf.WriteString(ev.Text)
			a.text.WriteString(ev.Text)
			l.m.out.text(l.id, stream.MessageID(), ev.Text, "")
			if err := stream.Update(a.text.String()); err != nil {
				l.m.log.Warn("saving streamed text", "session", l.id, "err", err)
			}
		case llm.EventThinkingDelta:
			a.thinking(ev)
			if ev.Text != "" {
				l.m.out.text(l.id, stream.MessageID(), "", ev.Text)
			}
		case llm.EventUsage:
			usage = ev.Usage
		case llm.EventRetry:
			if r := ev.Retry; r != nil {
				text := fmt.Sprintf("Retrying in %s (%s).", (time.Duration(r.Delay) * time.Millisecond).Round(100*time.Millisecond), r.Reason)
				l.send(wire.AgentNotice, func(q wire.Seq) any {
					return wire.NoticePayload{Seq: q, Kind: "retry", Text: text, RetryInMs: r.Delay, Reason: r.Reason}
				})
			}
		case llm.EventStop:
			stop, why = ev.Stop, ev.Text
		case llm.EventError:
			fail = ev.Err
		}
	}
	if fail == nil && ctx.Err() != nil {
		fail = ctx.Err()
	}
	if fail != nil {
		if err := stream.Interrupt(); err != nil {
			l.m.log.Warn("saving the interrupted answer", "session", l.id, "err", err)
		}
		if id := stream.MessageID(); a.text.Len() > 0 {
			t.reload(bg, id)
		}
		return answer{}, fail
	}
	t.account(bg, usage, est)
	a.finish()
	// A thinking block without text is of no use to send back, nor a
	// text block without text or citations (the provider's search starts
	// some).
	blocks := a.blocks[:0]
	for _, b := range a.blocks {
		empty := (b.Type == llm.BlockThinking && b.Thinking == "" && b.Signature == "") ||
			(b.Type == llm.BlockText && b.Text == "" && len(b.Citations) == 0)
		if !empty {
			blocks = append(blocks, b)
		}
	}
	if stop == llm.StopRefusal {
		// The refusal is kept in the session, after what arrived of the
		// answer: a refused answer is often empty, and would otherwise
		// leave no trace in the history or the window. The loop reports
		// it as the turn's error.
		blocks = append(blocks, llm.TextBlock(llm.RefusalNote(why)))
	}
	t.uniqueIDs(blocks, a.bad)
	if len(blocks) == 0 {
		_ = stream.Interrupt() // an empty answer is removed: providers refuse it
		return answer{stop: stop, usage: usage}, nil
	}
	msg, err := stream.Finish(blocks, usage)
	if err != nil {
		return answer{}, fmt.Errorf("saving the answer: %w", err)
	}
	t.history = append(t.history, msg)
	l.emitMessage(msg)
	recordSearches(bg, t.l, llm.NativeSearchHost(t.p, t.model), msg, usage)
	ans := answer{msg: msg, bad: a.bad, usage: usage, stop: stop, why: why}
	for _, b := range msg.Content {
		if b.Type == llm.BlockToolUse {
			ans.uses = append(ans.uses, b)
		}
	}
	return ans, nil
}

// uniqueIDs gives every tool_use an id not used before in the session.
// Some OpenAI-compatible servers number their calls per answer (call_0,
// call_1...) or send none; the store and the providers need each id once.
func (t *turn) uniqueIDs(blocks []llm.ContentBlock, bad map[string]badCall) {
	used := map[string]bool{}
	for _, m := range t.history {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolUse {
				used[b.ID] = true
			}
		}
	}
	for i := range blocks {
		b := &blocks[i]
		if b.Type != llm.BlockToolUse || (b.ID != "" && !used[b.ID]) {
			used[b.ID] = true
			continue
		}
		id := b.ID
		if id == "" {
			id = "call"
		}
		n := 2
		for used[fmt.Sprintf("%s_%d", id, n)] {
			n++
		}
		fresh := fmt.Sprintf("%s_%d", id, n)
		if c, ok := bad[b.ID]; ok {
			delete(bad, b.ID)
			bad[fresh] = c
		}
		b.ID = fresh
		used[fresh] = true
	}
}

// reload appends the interrupted message id, as saved, to the history and
// shows it.
func (t *turn) reload(ctx context.Context, id int64) {
	msgs, err := t.l.m.st.Messages.List(ctx, t.l.id)
	if err != nil {
		return
	}
	for _, m := range msgs {
		if m.ID == id {
			t.history = append(t.history, m)
			t.l.emitMessage(m)
		}
	}
}

// account stores a call's usage and cost, calibrates the token estimate
// and emits the session's totals.
func (t *turn) account(ctx context.Context, u llm.Usage, estimated int) {
	l := t.l
	prompt := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens
	if prompt > 0 && estimated > 0 {
		l.mu.Lock()
		l.calib = min(4, max(0.25, float64(prompt)/float64(estimated)))
		l.mu.Unlock()
	}
	t.own.mu.Lock()
	t.own.context = prompt + u.OutputTokens
	t.own.mu.Unlock()
	t.spend(ctx, u, true)
}

// spend adds a call's usage and cost (the main agent's or a helper's) to
// the session and emits the totals with the main agent's context use.
func (t *turn) spend(ctx context.Context, u llm.Usage, main bool) {
	t.spendOn(ctx, u, main, t.facts)
}

// spendOn is spend of a call to the model of facts (a custom agent's own).
func (t *turn) spendOn(ctx context.Context, u llm.Usage, main bool, facts modelfacts.Facts) {
	l := t.l
	if !main && u == (llm.Usage{}) {
		return
	}
	cost, known := facts.Cost(u)
	t.own.mu.Lock()
	defer t.own.mu.Unlock()
	if err := l.m.st.Sessions.UpdateUsage(ctx, l.id, u, cost); err != nil {
		l.m.log.Warn("saving usage", "session", l.id, "err", err)
	}
	sess, err := l.m.st.Sessions.Get(ctx, l.id)
	if err != nil {
		return
	}
	t.sess.Usage, t.sess.CostUSD = sess.Usage, sess.CostUSD
	v := wire.Usage{
		InputTokens: sess.Usage.InputTokens, OutputTokens: sess.Usage.OutputTokens,
		CacheReadTokens: sess.Usage.CacheReadTokens, CacheWriteTokens: sess.Usage.CacheWriteTokens,
		CostUSD: sess.CostUSD, CostKnown: known,
		ContextTokens: t.own.context, ContextWindow: t.window, ContextWindowSource: t.windowOf,
	}
	l.send(wire.AgentUsage, func(q wire.Seq) any { return wire.UsagePayload{Seq: q, Usage: v} })
}

// request builds the next model call from the history as it fits, with
// the images' bytes read from the blob store.
func (t *turn) request() llm.Request {
	return t.requestOf(t.l.m.fillImages(t.l.view(t.history, t.window)))
}

// requestOf is the model call with msgs.
func (t *turn) requestOf(msgs []llm.Message) llm.Request {
	return llm.Request{
		Model:     t.model,
		System:    t.systemPrompt(),
		Messages:  msgs,
		Tools:     t.defs(), // read again: MCP servers come and go, the mode may change
		MaxTokens: t.l.m.opt.MaxTokens,
		// Thinking requires the default temperature and tool_choice auto:
		// the request sets neither.
		ThinkingBudget: t.thinking,
	}
}
