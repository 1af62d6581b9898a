package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"pilot/backend/config"
	"pilot/backend/customagent"
	"pilot/backend/modelfacts"
	"pilot/backend/present"

	"pilot/backend/llm"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// Limits of a helper (the task tool).
const (
	// DefaultHelpers is how many helpers of a turn run at once.
	DefaultHelpers = 3
	// HelperMaxTools is the number of tool calls a helper may make; then
	// it is asked for its answer without tools.
	HelperMaxTools = 30
	// helperResultChars cuts what one of a helper's tool calls sends
	// back, so that its context holds its whole search.
	helperResultChars = 20_000
)

// helperTools are the tools a helper has: the read-only ones that need
// no one's approval.
var helperTools = customagent.ReadTools

// ownState is what the calls the loop runs itself (task, web_fetch) share
// within a turn.
type ownState struct {
	helpers int // at once (0: Options.Helpers, else DefaultHelpers)
	once    sync.Once
	slots   chan struct{} // one per helper allowed to run at once
	mu      sync.Mutex    // the turn's usage (t.sess), updated by concurrent helpers
	context int           // tokens of the main agent's last call
	ask     sync.Mutex    // one web_fetch approval at a time
	change  sync.Mutex    // one custom agent's change-making call at a time
}

// helper is one running helper: its own conversation with the model.
type helper struct {
	t      *turn
	parent *toolRun
	defs   []llm.ToolDef
	system string
	msgs   []llm.Message
	calls  int  // tool calls made
	held   bool // a SubagentStop hook already made it go on once
	// tools it may call; model it runs on; agent the custom agent it is
	// (nil: the read-only helper).
	tools map[string]bool
	model string
	agent *customagent.Agent
}

// taskKind: a task call. A helper agent with its own context and the
// read-only tools answers the prompt, and its answer is the result; with a
// subagent_type, the custom agent of that name does, with its own prompt,
// tools and model. It asks the gate nothing itself: each of its calls
// does. Its tool calls are stored and shown under the task's card.
var taskKind = kind{effect: func(c *call) (tools.Result, error) {
	c.t.runHelper(c)
	return tools.Result{}, nil
}}

// runHelper runs a task call's helper and ends the call with its answer.
func (t *turn) runHelper(c *call) {
	ctx, r := c.ctx, c.r
	p, ok := inputOf[tools.TaskParams](c)
	if !ok {
		return
	}
	if strings.TrimSpace(p.Prompt) == "" {
		c.fail("The task's prompt is empty: say what the helper should find and report.", false)
		return
	}
	var custom *customagent.Agent
	if name := strings.TrimSpace(p.SubagentType); name != "" {
		a, ok := t.agents.Find(name)
		if !ok {
			c.fail(unknownAgent(name, t.agents), false)
			return
		}
		custom = &a
	}
	t.own.once.Do(func() {
		n := t.own.helpers
		if n <= 0 {
			n = t.l.m.opt.Helpers
		}
		if n <= 0 {
			n = DefaultHelpers
		}
		t.own.slots = make(chan struct{}, n)
	})
	select {
	case t.own.slots <- struct{}{}:
		defer func() { <-t.own.slots }()
	case <-ctx.Done():
		c.tell(cancelled(false))
		return
	}
	h := &helper{t: t, parent: r, msgs: []llm.Message{{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(p.Prompt)}}},
		tools: helperTools, model: t.model, agent: custom}
	var note string
	if custom != nil {
		h.system = t.agentSystem(*custom)
		h.tools = map[string]bool{}
		for _, name := range custom.Tools {
			h.tools[name] = true
		}
		if h.model, note = t.agentModel(*custom); note != "" {
			t.l.notice(string(wire.NoticeAgents), note, 0)
		}
	} else {
		var sys strings.Builder
		render(&sys, "helper.md", promptData{Dir: t.l.root.Dir(), Date: t.l.m.opt.Now().Format("Monday 2 January 2006")})
		h.system = sys.String()
	}
	for _, def := range t.l.registry.Defs() {
		if h.tools[def.Name] {
			h.defs = append(h.defs, def)
		}
	}
	o := h.run(ctx)
	if note != "" {
		o.text += "\n\n(" + note + ")"
	}
	c.tell(o)
}

// run is the helper's loop: call the model, run its tools, until it
// answers without tools, reaches its limit, the session's budget, or the
// turn is cancelled.
func (h *helper) run(ctx context.Context) outcome {
	t := h.t
	for {
		if ctx.Err() != nil {
			return h.stopped(true)
		}
		if over := t.spending().over; over != "" {
			return outcome{text: fmt.Sprintf("The helper stopped after %d tool calls: the session reached its budget (%s). Nothing more was searched.", h.calls, over),
				isError: true, status: wire.ToolError}
		}
		defs, limit := h.defs, h.calls >= HelperMaxTools
		if limit {
			defs = nil
			h.msgs = append(h.msgs, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(
				fmt.Sprintf("You have used your %d tool calls. Answer now with what you found, and say what you could not check.", HelperMaxTools))}})
		}
		msg, usage, err := h.call(ctx, defs)
		facts := t.facts
		if h.model != t.model && h.model != "" {
			// A custom agent on a model of its own: the table's prices.
			facts = modelfacts.Resolve(h.model, config.ModelOverride{}, llm.Reported{}, false)
		}
		t.spendOn(context.WithoutCancel(ctx), usage, false, facts)
		if err != nil {
			if ctx.Err() != nil {
				return h.stopped(true)
			}
			t.l.m.logError("helper failed", t.l.id, err)
			return outcome{text: fmt.Sprintf("The helper failed after %d tool calls: %s", h.calls, humanError(err)), isError: true, status: wire.ToolError}
		}
		h.msgs = append(h.msgs, msg)
		var uses []llm.ContentBlock
		var text strings.Builder
		for _, b := range msg.Content {
			switch b.Type {
			case llm.BlockToolUse:
				uses = append(uses, b)
			case llm.BlockText:
				text.WriteString(b.Text)
			}
		}
		if len(uses) == 0 && !limit && h.subagentStop(ctx) {
			continue
		}
		if len(uses) == 0 || limit {
			answer := strings.TrimSpace(text.String())
			if answer == "" {
				return outcome{text: fmt.Sprintf("The helper ended after %d tool calls without an answer.", h.calls), isError: true, status: wire.ToolError}
			}
			return outcome{text: answer, status: wire.ToolDone}
		}
		results := make([]llm.ContentBlock, len(uses))
		for i, u := range uses {
			results[i] = h.runTool(ctx, u)
		}
		h.msgs = append(h.msgs, llm.Message{Role: llm.RoleUser, Content: results})
	}
}

// stopped is the outcome of a helper the user cancelled.
func (h *helper) stopped(started bool) outcome {
	o := cancelled(started)
	o.text += fmt.Sprintf(" The helper had made %d tool calls.", h.calls)
	return o
}

// call streams one answer of the helper's model.
func (h *helper) call(ctx context.Context, defs []llm.ToolDef) (llm.Message, llm.Usage, error) {
	t := h.t
	ch, err := t.p.Stream(ctx, llm.Request{Model: h.model, System: h.system, Messages: h.msgs, Tools: defs, MaxTokens: t.l.m.opt.MaxTokens})
	if err != nil {
		return llm.Message{}, llm.Usage{}, err
	}
	var a assembler
	var usage llm.Usage
	var fail error
	for ev := range ch {
		if a.take(ev) {
			continue
		}
		switch ev.Type {
		case llm.EventTextDelta:
			_, buf := a.last(llm.BlockText)
			buf.WriteString(ev.Text)
		case llm.EventThinkingDelta: // sent back: some servers require it with tools
			a.thinking(ev)
		case llm.EventUsage:
			usage = ev.Usage
		case llm.EventError:
			fail = ev.Err
		}
	}
	if fail == nil {
		fail = ctx.Err()
	}
	if fail != nil {
		return llm.Message{}, usage, fail
	}
	a.finish()
	blocks := a.blocks[:0]
	for i, b := range a.blocks {
		if b.Type == llm.BlockToolUse && b.ID == "" {
			b.ID = fmt.Sprintf("call_%d_%d", len(h.msgs), i)
		}
		if (b.Type != llm.BlockText || b.Text != "") && (b.Type != llm.BlockThinking || b.Thinking != "" || b.Signature != "") {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		blocks = append(blocks, llm.TextBlock(""))
	}
	return llm.Message{Role: llm.RoleAssistant, Content: blocks}, usage, nil
}

// runTool runs one of the helper's calls, stored and shown under the
// task's card, and returns its result for the helper.
func (h *helper) runTool(ctx context.Context, u llm.ContentBlock) llm.ContentBlock {
	t, l := h.t, h.t.l
	bg := context.WithoutCancel(ctx)
	h.calls++
	id := fmt.Sprintf("%s/%d", h.parent.use.ID, h.calls)
	c := store.ToolCall{SessionID: l.id, MessageID: h.parent.msg, ParentToolUseID: h.parent.use.ID,
		Call: store.Call{ToolUseID: id, Name: u.Name, Input: u.Input, Status: wire.ToolRunning}}
	if h.agent != nil && customagent.ChangeTools[u.Name] && h.tools[u.Name] {
		out, err := h.agentCall(ctx, u, id)
		if err != nil {
			l.m.log.Warn("saving a custom agent's tool call", "session", l.id, "err", err)
		}
		return llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: u.ID, Content: cutHelperResult(out.text), IsError: out.isError}
	}
	rec, err := l.m.st.ToolCalls.Insert(bg, c)
	if err != nil {
		l.m.log.Warn("saving a helper's tool call", "session", l.id, "err", err)
		rec = c // the card is shown all the same
	}
	hr := &toolRun{use: u, view: present.ToolCall(rec, l.registry.Label(u.Name, u.Input))}
	l.emitTool(hr.view)
	hc := &call{t: t, ctx: ctx, r: hr}
	if hctx, ok := t.preToolUse(hc); ok {
		hc.ctx = hctx
		h.execute(hc)
		hc.postToolUse(ctx)
	}
	out, v := hr.out, hr.view
	if err := l.saveHooks(bg, rec.ID, v.Hooks); err != nil {
		l.m.log.Warn("saving a helper's hook runs", "session", l.id, "err", err)
	}
	if rec.ID != 0 {
		if err := l.m.st.ToolCalls.Finish(bg, rec.ID, out.status, out.text); err != nil {
			l.m.log.Warn("saving a helper's tool result", "session", l.id, "err", err)
		}
	}
	present.End(&v, out.status, out.text, out.isError, out.refusedBy, t.l.m.opt.Now())
	l.emitTool(v)
	return llm.ContentBlock{Type: llm.BlockToolResult, ToolUseID: u.ID, Content: cutHelperResult(out.text), IsError: out.isError}
}

// cutHelperResult cuts what one call sends back to a helper.
func cutHelperResult(text string) string {
	if len(text) > helperResultChars {
		return text[:helperResultChars] + fmt.Sprintf("\n[... cut at %d characters: read a narrower range or search more precisely]", helperResultChars)
	}
	return text
}

// helperRead is a helper's call: a read the gate lets run without
// asking (no one can be asked about a helper's call); the images a tool
// returns are not shown to it.
var helperRead = kind{failed: toolFailed, effect: execute,
	question: func(c *call) (question, bool) {
		return question{call: c.t.readCall(c.r.use.Name, c.r.use.Input), noAsk: true}, true
	}}

// execute runs a helper's call if it is one of its tools.
func (h *helper) execute(c *call) {
	u := c.r.use
	if !h.tools[u.Name] {
		names := make([]string, len(h.defs))
		for i, d := range h.defs {
			names[i] = d.Name
		}
		who := "A helper"
		if h.agent != nil {
			who = "The agent " + h.agent.Name
		}
		if len(names) == 0 {
			c.fail(fmt.Sprintf("%s cannot call %s: it has no tools. Answer with what you know.", who, u.Name), false)
			return
		}
		c.fail(fmt.Sprintf("%s cannot call %s. Its tools are: %s.", who, u.Name, strings.Join(names, ", ")), false)
		return
	}
	if c.ctx.Err() != nil {
		c.finish(cancelled(false))
		return
	}
	c.helper = true
	c.perform(&helperRead)
}

// humanError is an error as the user reads it.
func humanError(err error) string {
	var le *llm.Error
	if errors.As(err, &le) {
		return le.Human()
	}
	return err.Error()
}
