package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"pilot/backend/customagent"
	"pilot/backend/hooks"
	"pilot/backend/llm"
	"pilot/backend/permission"
	"pilot/backend/present"
	"pilot/backend/projectroot"
	"pilot/backend/rules"
	"pilot/backend/skills"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// maxAttachment is the largest file attached to a message.
const maxAttachment = 256 << 10

// live is the in-memory side of one session.
type live struct {
	id       int64
	m        *Manager
	project  store.Project
	root     *projectroot.Root
	worktree bool // the session works in its own git worktree (root is it)
	reads    *tools.ReadTracker
	registry *tools.Registry
	machine  machine

	mu      sync.Mutex
	cancel  context.CancelFunc // set while a turn runs
	mode    permission.Mode    // "" until SetApprovalMode: the session's own
	compact bool               // CompactNow asked during a turn
	summary *summary           // the latest compaction
	elided  map[string]bool    // tool_use ids whose output is elided from requests
	calib   float64            // provider tokens per estimated token
	raised  budgetRaise        // how far the user let the budget go
	fetched hostGrants         // hosts the user let web_fetch read in this session
	search  searchState        // web_search's services allowed and searches made (kind_search.go)
	again   retryCall          // the call the next turn makes first (RetryCall)
	pod     pod                // the session's OS sandbox for commands
	jobs    jobs               // its background jobs (jobs.go)
	hooks   *hooks.Set         // the settings.json hooks, read when a turn starts
	// hooksWarned: the untrusted and ignored hooks were shown once.
	hooksWarned bool
	started     bool        // a turn ran in this process (SessionStart ran; SessionEnd runs)
	diag        diagState   // missing servers told, files with errors (diagnostics.go)
	nested      nestedState // the nested instruction files looked for and brought in (instructions.go)

	ruled  atomic.Pointer[[]permission.Rule]          // the rules the gate read last (Withheld)
	skills atomic.Pointer[lastFound[skills.Set]]      // the skills the last turn found (loadSkills)
	agents atomic.Pointer[lastFound[customagent.Set]] // the custom agents the last turn found (loadAgents)

	// notRead: the instruction files the last turn did not read (tellNotRead).
	notRead atomic.Pointer[string]
}

// setState moves the machine and emits the new state. An invalid move is
// logged and the state is forced: the UI must not be left showing a wrong
// state because of a bug in the loop.
func (l *live) setState(s State) {
	prev := l.machine.get()
	if err := l.machine.to(s); err != nil {
		l.m.log.Error("agent state", "session", l.id, "err", err)
		l.machine.mu.Lock()
		l.machine.state = s
		l.machine.mu.Unlock()
	}
	if prev == s {
		return
	}
	l.send(wire.AgentState, func(q wire.Seq) any { return wire.StatePayload{Seq: q, State: wire.AgentStatus(s)} })
}

func (l *live) send(name string, build func(wire.Seq) any) { l.m.out.send(l.id, name, build) }

func (l *live) notice(kind, text string, retryMs int64) {
	l.send(wire.AgentNotice, func(q wire.Seq) any {
		return wire.NoticePayload{Seq: q, Kind: wire.NoticeKind(kind), Text: text, RetryInMs: retryMs}
	})
}

func (l *live) emitMessage(msg store.Message) {
	v := present.Message(msg)
	l.send(wire.AgentMessage, func(q wire.Seq) any { return wire.MessagePayload{Seq: q, Message: v} })
}

func (l *live) emitTool(c wire.ToolCall) {
	l.send(wire.AgentTool, func(q wire.Seq) any { return wire.ToolPayload{Seq: q, Call: c} })
}

// emitError reports a failure as one human sentence, and logs it.
func (l *live) emitError(err error) {
	kind, msg, retry := "internal", err.Error(), false
	var le *llm.Error
	if errors.As(err, &le) {
		kind, msg, retry = string(le.Kind), le.Human(), le.Retryable()
	}
	l.m.logError("turn failed", l.id, err)
	l.send(wire.AgentError, func(q wire.Seq) any {
		return wire.ErrorPayload{Seq: q, Kind: wire.ErrorKind(kind), Message: msg, Retryable: retry}
	})
}

// approvalMode is the mode in force: the override, else the session's.
func (l *live) approvalMode(sess store.Session) permission.Mode {
	l.mu.Lock()
	mode := l.mode
	l.mu.Unlock()
	if mode != "" {
		return mode
	}
	if pm, err := permission.ParseMode(sess.ApprovalMode); err == nil {
		return pm
	}
	return permission.ModeAsk
}

// rules loads the project's permission rules: those stored, then those in
// force from the settings files (Deps.SettingsRules), read now. The
// settings files' rules are kept when the store cannot be read: their
// deny and ask rules only restrict.
func (l *live) rules(ctx context.Context) ([]permission.Rule, error) {
	var out []permission.Rule
	rs, err := l.m.st.Rules.List(ctx, l.project.ID)
	for _, r := range rs {
		out = append(out, permission.Rule{Tool: r.Tool, Pattern: r.Pattern, Effect: permission.Effect(r.Effect)})
	}
	if l.m.settings != nil {
		out = append(out, l.m.settings(l.project.Path)...)
	}
	return out, err
}

// addRules stores rules made by "always allow this", validated like every
// rule (the tools known are the session's); one that could never match is
// not stored, and the user is told.
func (l *live) addRules(ctx context.Context, rs []permission.Rule) {
	var names []string
	for _, t := range l.registry.Tools() {
		names = append(names, t.Name())
	}
	known := permission.Known(names, nil)
	for _, r := range rs {
		_, err := rules.Add(ctx, l.m.st, l.project.ID, r, known)
		var inv *rules.Invalid
		switch {
		case errors.As(err, &inv):
			l.notice("rule", fmt.Sprintf("\"Always allow\" did not store the rule %s: %s You will be asked again next time.", r, inv.Sentence), 0)
		case err != nil:
			l.m.log.Warn("saving permission rule", "rule", r.String(), "err", err)
			l.notice("rule", fmt.Sprintf("\"Always allow\" could not store the rule %s (%v). You will be asked again next time.", r, err), 0)
		}
	}
}

// userBlocks makes the content of a user message: the text, then each
// attached file as a text block.
func (l *live) userBlocks(text string, attachments []string, images bool) ([]llm.ContentBlock, error) {
	var blocks []llm.ContentBlock
	if strings.TrimSpace(text) != "" {
		blocks = append(blocks, llm.TextBlock(text))
	}
	for _, a := range attachments {
		f, fi, p, err := l.root.OpenRead(a)
		if err != nil {
			return nil, fmt.Errorf("attachment %s: %w", a, err)
		}
		if fi.IsDir() {
			f.Close()
			return nil, fmt.Errorf("attachment %s is a folder: attach files only", a)
		}
		b, err := projectroot.ReadAtMost(f, fi, maxAttachment)
		f.Close()
		if errors.Is(err, projectroot.ErrTooLarge) {
			return nil, fmt.Errorf("attachment %s is larger than %d KB; attach files up to %d KB or ask the agent to read it", a, maxAttachment>>10, maxAttachment>>10)
		}
		if err != nil {
			return nil, fmt.Errorf("attachment %s: %w", a, err)
		}
		if len(b) > maxAttachment {
			return nil, fmt.Errorf("attachment %s is %d KB; attach files up to %d KB or ask the agent to read it", a, len(b)>>10, maxAttachment>>10)
		}
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("attachment %s is not a text file: attach text files only, or ask the agent to read it", a)
		}
		l.reads.MarkRead(p.Abs)
		blocks = append(blocks, llm.TextBlock(fmt.Sprintf("<attached_file path=%q>\n%s\n</attached_file>", p.Rel, b)))
	}
	if len(blocks) == 0 && !images {
		return nil, ErrEmpty
	}
	return blocks, nil
}
