package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pilot/backend/hooks"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/store"
	"pilot/backend/toolname"
	"pilot/backend/wire"
)

// The settings.json hooks (backend/hooks) in the loop:
//
//   - PreToolUse runs before a call's gate and review (dispatch): a block
//     refuses the call with the hook's reason, which the model reads, and
//     no review is shown; allow and ask reach the gate (gate.Call.Hook),
//     which never lets allow beat a deny rule or the sandbox;
//   - when the user approved only some hunks of a change or edited it,
//     PreToolUse runs again, as a Write of each file's exact new content,
//     before anything is written (landing);
//   - PostToolUse runs after a call that succeeded; what it says (a block's
//     reason, additionalContext) is added to the result the model reads;
//   - UserPromptSubmit runs before the user's message is saved: a block
//     stops the turn with the hook's reason, additionalContext is added to
//     the message;
//   - Stop runs when the model ends its turn: a block sends the reason to
//     the model, which goes on once (a second block is shown, not obeyed).
//
// Every run is shown: on its tool card (wire.ToolCall.Hooks), or as a
// notice for the events without a card.

// refusedHook is who refused a call a PreToolUse hook blocked, as the
// card shows it (wire.RefusedByHook, with the hook's command). It is not
// stored as refused_by (whose CHECK takes user, plan, mode and rule only):
// the hook runs are stored with the call (saveHooks), and the card read
// back names the hook that denied it (present.ToolCall).
const refusedHook = string(wire.RefusedByHook)

// saveHooks stores the hook runs of the call row id, so its card shows
// them after a reload as it did live.
func (l *live) saveHooks(ctx context.Context, id int64, runs []wire.HookRun) error {
	if len(runs) == 0 || id == 0 {
		return nil
	}
	b, err := json.Marshal(runs)
	if err == nil {
		err = l.m.st.ToolCalls.SetRecord(ctx, id, store.RecordHooks, string(b))
	}
	if err != nil {
		return fmt.Errorf("saving the hooks' runs: %w", err)
	}
	return nil
}

// hookSayKey carries a call's PreToolUse decision to the gate.
type hookSayKey struct{}

func withHookSay(ctx context.Context, d wire.HookDecision) context.Context {
	return context.WithValue(ctx, hookSayKey{}, d)
}

func hookSay(ctx context.Context) wire.HookDecision {
	d, _ := ctx.Value(hookSayKey{}).(wire.HookDecision)
	return d
}

// loadHooks reads the session's hooks for the turn about to run (the
// files are read again each turn, so an edit applies from the next one),
// and says once per session which project hooks are not trusted.
func (l *live) loadHooks() {
	if l.m.hooks == nil {
		return
	}
	hs := l.m.hooks(l.project.Path, l.root.Dir())
	l.mu.Lock()
	l.hooks = hs
	warn := !l.hooksWarned
	l.hooksWarned = true
	l.mu.Unlock()
	if warn {
		for _, s := range append(slices.Clone(hs.Untrusted()), hs.Ignored()...) {
			l.notice(string(wire.NoticeHook), s, 0)
		}
	}
}

func (l *live) hookSet() *hooks.Set {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hooks
}

// claudeMode is the permission_mode hooks read, in Claude Code's words.
func claudeMode(m permission.Mode) string {
	switch m {
	case permission.ModePlan:
		return "plan"
	case permission.ModeEdits:
		return "acceptEdits"
	case permission.ModeAll:
		return "bypassPermissions"
	case permission.ModeNone:
		return "dontAsk"
	}
	return "default"
}

// hookInput is the part of a hook's input every event has.
func (l *live) hookInput(e hooks.Event, mode permission.Mode) hooks.Input {
	return hooks.Input{SessionID: strconv.FormatInt(l.id, 10), Cwd: l.root.Dir(), HookEventName: e, PermissionMode: claudeMode(mode)}
}

// preToolUse runs the call's PreToolUse hooks (one run per file of a
// multi_patch). It reports the context the call goes on with, carrying
// their decision for the gate, and false when a hook blocked it (r.out
// then says why).
func (t *turn) preToolUse(c *call) (context.Context, bool) {
	ctx, r := c.ctx, c.r
	hs := t.l.hookSet()
	if !hs.Has(hooks.PreToolUse) {
		return ctx, true
	}
	res := c.runToolHooks(ctx, hooks.PreToolUse, hooks.Calls(r.use.Name, r.use.Input, t.l.root.Dir()), "")
	if res.Block || res.Halt {
		c.finish(c.hookRefused(res, ""))
		return ctx, false
	}
	return withHookSay(ctx, res.Permission), true
}

// runToolHooks runs event's hooks for each of calls and merges the results
// onto the card.
func (c *call) runToolHooks(ctx context.Context, e hooks.Event, calls []hooks.Call, output string) hooks.Result {
	t, r := c.t, c.r
	hs := t.l.hookSet()
	var all hooks.Result
	all.Permission = wire.HookNone
	for _, hc := range calls {
		in := t.l.hookInput(e, t.mode)
		in.ToolName, in.ToolInput, in.ToolUseID = hc.Name, hc.Input, r.use.ID
		if e == hooks.PostToolUse {
			in.ToolResponse = hooks.Response(r.use.Name, hc, output, r.out.isError)
		}
		res := hs.Run(ctx, in)
		all.Runs = append(all.Runs, res.Runs...)
		all.Block = all.Block || res.Block
		all.Reason = joinLines(all.Reason, res.Reason)
		all.Context = append(all.Context, res.Context...)
		all.Halt = all.Halt || res.Halt
		all.StopReason = joinLines(all.StopReason, res.StopReason)
		all.Messages = append(all.Messages, res.Messages...)
		if rank(res.Permission) > rank(all.Permission) {
			all.Permission = res.Permission
		}
	}
	if len(all.Runs) > 0 {
		r.view.Hooks = append(slices.Clip(r.view.Hooks), all.Runs...)
		t.l.emitTool(r.view)
	}
	for _, m := range all.Messages {
		t.l.m.log.Warn("hook", "session", t.l.id, "event", string(e), "message", m)
	}
	return all
}

func rank(d wire.HookDecision) int {
	return map[wire.HookDecision]int{wire.HookAllow: 1, wire.HookAsk: 2, wire.HookDeny: 3}[d]
}

func joinLines(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// hookRefused is the ending of a call a PreToolUse hook blocked (or whose
// hook asked to stop): not run, the hook's reason for the model.
func (c *call) hookRefused(res hooks.Result, when string) outcome {
	t := c.t
	reason := res.Reason
	if reason == "" {
		reason = res.StopReason
	}
	text := fmt.Sprintf("Not run: a PreToolUse hook of the user's settings blocked this call%s. It said:\n%s", when, reason)
	if when != "" {
		text = fmt.Sprintf("Not applied: a PreToolUse hook of the user's settings blocked this change%s, so nothing was written. It said:\n%s", when, reason)
	}
	if res.Halt {
		t.halted.add(res.StopReason)
	}
	by := refusedHook
	for _, run := range res.Runs {
		if run.Decision == wire.HookDeny {
			by += " " + run.Hook
			break
		}
	}
	return refusedOutcome(text, by)
}

// postToolUse runs the PostToolUse hooks of a call that succeeded and adds
// what they said to the result the model reads.
func (c *call) postToolUse(ctx context.Context) {
	t, r := c.t, c.r
	hs := t.l.hookSet()
	if !hs.Has(hooks.PostToolUse) || r.out.status != wire.ToolDone {
		return
	}
	calls := hooks.Calls(r.use.Name, r.use.Input, t.l.root.Dir())
	res := c.runToolHooks(context.WithoutCancel(ctx), hooks.PostToolUse, calls, r.out.text)
	if res.Block {
		r.out.text += "\n\nA PostToolUse hook of the user's settings objected to this call's result: " + res.Reason
	}
	for _, c := range res.Context {
		r.out.text += "\n\nA PostToolUse hook of the user's settings added: " + c
	}
	if res.Halt {
		t.halted.add(res.StopReason)
	}
}

// landing runs the PreToolUse hooks again on exactly what will land when
// the user approved only some hunks or edited the change: each such file
// as a Write of its final content. It reports false when a hook blocked
// it, with the call's ending.
func (c *call) landing(ctx context.Context, plans []*filePlan) (outcome, bool) {
	t := c.t
	hs := t.l.hookSet()
	if !hs.Has(hooks.PreToolUse) {
		return outcome{}, true
	}
	var calls []hooks.Call
	for _, f := range plans {
		if !f.write || (f.edited == nil && f.final == f.change.NewContent) {
			continue
		}
		in, _ := json.Marshal(map[string]string{"path": f.change.Path, "content": f.final})
		calls = append(calls, hooks.Calls(toolname.WriteFile, in, t.l.root.Dir())...)
	}
	if len(calls) == 0 {
		return outcome{}, true
	}
	res := c.runToolHooks(ctx, hooks.PreToolUse, calls, "")
	if res.Block || res.Halt {
		return c.hookRefused(res, " as the user approved it (only some hunks, or edited)"), false
	}
	return outcome{}, true
}

// hookNotices shows the runs of an event that has no tool card, one
// sentence each.
func (l *live) hookNotices(res hooks.Result) {
	for _, run := range res.Runs {
		var text string
		switch run.Decision {
		case wire.HookError:
			text = run.Message // says what failed and that the turn went on
		case wire.HookDeny:
			text = fmt.Sprintf("The %s hook %q blocked in %d ms: %s", run.Event, run.Hook, run.Ms, run.Message)
		default:
			text = fmt.Sprintf("The %s hook %q ran in %d ms.", run.Event, run.Hook, run.Ms)
			if run.Message != "" {
				text += " " + run.Message
			}
		}
		l.notice(string(wire.NoticeHook), text, 0)
	}
}

// userPromptSubmit runs the UserPromptSubmit hooks on the user's message.
// It returns the message with their additionalContext added, or an error
// (a sentence) when a hook blocked it.
func (l *live) userPromptSubmit(ctx context.Context, user []llm.ContentBlock) ([]llm.ContentBlock, error) {
	hs := l.hookSet()
	if !hs.Has(hooks.UserPromptSubmit) {
		return user, nil
	}
	mode := permission.ModeAsk
	if sess, err := l.m.st.Sessions.Get(ctx, l.id); err == nil {
		mode = l.approvalMode(sess)
	}
	in := l.hookInput(hooks.UserPromptSubmit, mode)
	var text []string
	for _, b := range user {
		if b.Type == llm.BlockText {
			text = append(text, b.Text)
		}
	}
	in.Prompt = strings.Join(text, "\n")
	res := hs.Run(ctx, in)
	l.hookNotices(res)
	if res.Block || res.Halt {
		why := joinLines(res.Reason, res.StopReason)
		return nil, fmt.Errorf("A UserPromptSubmit hook of your settings blocked your message, so it was not sent to the model: %s", why)
	}
	for _, c := range res.Context {
		user = append(user[:len(user):len(user)], llm.ContentBlock{Type: llm.BlockText, Text: "Context from a UserPromptSubmit hook of the user's settings:\n" + c})
	}
	return user, nil
}

// stopHook runs the Stop hooks when the model ended its turn. It reports
// true when a hook blocked the stop and the model is to go on: the reason
// is committed as a user message. The model goes on once per turn.
func (t *turn) stopHook(ctx context.Context) bool {
	l := t.l
	hs := l.hookSet()
	if !hs.Has(hooks.Stop) {
		return false
	}
	in := l.hookInput(hooks.Stop, t.mode)
	active := t.stopped
	in.StopHookActive = &active
	res := hs.Run(ctx, in)
	l.hookNotices(res)
	if !res.Block || res.Halt {
		return false
	}
	if t.stopped {
		l.notice(string(wire.NoticeHook), "A Stop hook blocked the end of the turn again; the model already went on once for it, so the turn ends here.", 0)
		return false
	}
	t.stopped = true
	msg, err := l.m.st.Messages.Append(context.WithoutCancel(ctx), l.id, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{{
		Type: llm.BlockText, Text: "A Stop hook of the user's settings did not let you stop yet. It said:\n" + res.Reason}}}, llm.Usage{})
	if err != nil {
		l.m.log.Warn("saving the Stop hook's reason", "session", l.id, "err", err)
		return false
	}
	t.history = append(t.history, msg)
	l.emitMessage(msg)
	return true
}

// subagentStop runs the SubagentStop hooks when a helper answers. It
// reports true when a hook blocked the stop and the helper is to go on
// (once): the reason is added to its conversation.
func (h *helper) subagentStop(ctx context.Context) bool {
	l := h.t.l
	hs := l.hookSet()
	if !hs.Has(hooks.SubagentStop) {
		return false
	}
	in := l.hookInput(hooks.SubagentStop, h.t.mode)
	active := h.held
	in.StopHookActive = &active
	res := hs.Run(ctx, in)
	l.hookNotices(res)
	if !res.Block || res.Halt || h.held {
		return false
	}
	h.held = true
	h.msgs = append(h.msgs, llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(
		"A SubagentStop hook of the user's settings did not let you stop yet. It said:\n" + res.Reason)}})
	return true
}

// sessionStart runs the SessionStart hooks before the first turn a session
// runs in this process (source startup for a new session, resume for one
// with history) and returns user with their context added.
func (l *live) sessionStart(ctx context.Context, user []llm.ContentBlock) []llm.ContentBlock {
	hs := l.hookSet()
	l.mu.Lock()
	first := !l.started
	l.started = true
	l.mu.Unlock()
	if !first || !hs.Has(hooks.SessionStart) {
		return user
	}
	in := l.hookInput(hooks.SessionStart, permission.ModeAsk)
	in.Source = "startup"
	if ms, err := l.m.st.Messages.List(ctx, l.id); err == nil && len(ms) > 0 {
		in.Source = "resume"
	}
	res := hs.Run(ctx, in)
	l.hookNotices(res)
	if user == nil {
		return nil // a retry: the history is sent as it is
	}
	for _, c := range res.Context {
		user = append(user[:len(user):len(user)], llm.ContentBlock{Type: llm.BlockText, Text: "Context from a SessionStart hook of the user's settings:\n" + c})
	}
	return user
}

// sessionEnd runs the SessionEnd hooks of a session that ran a turn in
// this process, when Pilot closes.
func (l *live) sessionEnd(ctx context.Context, reason string) {
	hs := l.hookSet()
	l.mu.Lock()
	started := l.started
	l.mu.Unlock()
	if !started || !hs.Has(hooks.SessionEnd) {
		return
	}
	in := l.hookInput(hooks.SessionEnd, permission.ModeAsk)
	in.Reason = reason
	for _, m := range hs.Run(ctx, in).Messages {
		l.m.log.Warn("SessionEnd hook", "session", l.id, "message", m)
	}
}

// preCompact runs the PreCompact hooks before a compaction (trigger auto
// or manual). They cannot stop it; what they say is shown.
func (t *turn) preCompact(ctx context.Context, forced bool) {
	hs := t.l.hookSet()
	if !hs.Has(hooks.PreCompact) {
		return
	}
	in := t.l.hookInput(hooks.PreCompact, t.mode)
	in.Trigger = "auto"
	if forced {
		in.Trigger = "manual"
	}
	t.l.hookNotices(hs.Run(ctx, in))
}

// notification runs the Notification hooks when Pilot waits for the
// user's decision, in the background (a notifier must not hold the turn).
func (m *Manager) notification(session int64, a wire.Approval) {
	l := m.loaded(session)
	if l == nil || !l.hookSet().Has(hooks.Notification) {
		return
	}
	what := a.Tool
	if what == "" {
		what = string(a.Kind)
	}
	in := l.hookInput(hooks.Notification, permission.ModeAsk)
	in.Message = "Pilot needs your permission to use " + hooks.ToolName(what)
	in.NotificationType = "permission_prompt"
	m.turns.Add(1)
	go func() {
		defer m.turns.Done()
		l.hookNotices(l.hookSet().Run(m.base, in))
	}()
}

// halted is why hooks asked to stop the turn (continue: false), set by
// calls that may run at once.
type halted struct {
	mu  sync.Mutex
	why string
}

func (h *halted) add(why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.why = joinLines(h.why, why)
}

func (h *halted) get() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.why
}
