package agent

import (
	"context"
	"fmt"
	"strings"

	"pilot/backend/customagent"
	"pilot/backend/gate"
	"pilot/backend/llm"
	"pilot/backend/wire"
)

// loadAgents finds the session's custom agents (its folder's, PILOT_HOME's
// and the user's) for a turn: the task tool's description lists them. Each
// file that cannot be used is told to the user in a notice at the
// session's first turn and whenever the list of them changes.
func (l *live) loadAgents() customagent.Set {
	set := customagent.Load(l.setupFolders())
	found(l, &l.agents, set, unusables(set.Problems), wire.NoticeAgents, "agent not used")
	return set
}

// currentAgents is what the last turn found (none before the first).
func (l *live) currentAgents() customagent.Set { return last(&l.agents) }

// unknownAgent is the result of a task naming no agent of the session.
func unknownAgent(name string, set customagent.Set) string {
	if len(set.Agents) == 0 {
		return fmt.Sprintf("There is no custom agent called %q: none is set up for this project. Call task without subagent_type to use the read-only helper.", name)
	}
	return fmt.Sprintf("There is no custom agent called %q. The custom agents are: %s. Call task again with one of them as subagent_type, or without it for the read-only helper.",
		name, strings.Join(set.Names(), ", "))
}

// modelAliases are the model names Claude Code's agents may give, as the
// Anthropic models they stand for.
var modelAliases = map[string]string{"sonnet": "claude-sonnet-4-5", "opus": "claude-opus-4-5", "haiku": "claude-haiku-4-5"}

// agentModel is the model an agent runs on: the session's when it gives
// none or inherit; the one it names on the session's provider when that
// provider serves it (an alias or a claude- id on Anthropic, any other id
// on an OpenAI-compatible server); else the session's, with a note saying
// so.
func (t *turn) agentModel(a customagent.Agent) (model, note string) {
	return pickModel(a, t.p.Name(), t.model)
}

// pickModel is agentModel for a session on provider (its Name) with
// model.
func pickModel(a customagent.Agent, provider, session string) (model, note string) {
	want := a.Model
	if want == "" || want == "inherit" {
		return session, ""
	}
	anthropic := provider == "anthropic"
	if id, ok := modelAliases[want]; ok {
		if anthropic {
			return id, ""
		}
	} else if anthropic == strings.HasPrefix(want, "claude-") {
		return want, ""
	}
	return session, fmt.Sprintf("The agent %s asks for the model %s, which the session's provider (%s) does not serve, so it ran on the session's model.", a.Name, a.Model, provider)
}

// agentSystem is a custom agent's system prompt: its own, then where it
// works and what its tools can do.
func (t *turn) agentSystem(a customagent.Agent) string {
	var b strings.Builder
	b.WriteString(a.Prompt)
	b.WriteString("\n\n")
	data := struct {
		promptData
		Name, Tools string
		Changes     bool
	}{promptData{Dir: t.l.root.Dir(), Date: t.l.m.opt.Now().Format("Monday 2 January 2006")}, a.Name, strings.Join(a.Tools, ", "), !a.ReadOnly()}
	if data.Tools == "" {
		data.Tools = "none"
	}
	render(&b, "agent.md", data)
	return b.String()
}

// agentCall runs one of an editing agent's change-making calls as the
// session's own: the same gate, review, sandbox and ledger, its card
// stored and shown under the task's card (one at a time across the
// turn's helpers, as the main agent's changes run one at a time).
func (h *helper) agentCall(ctx context.Context, u llm.ContentBlock, id string) (outcome, error) {
	t := h.t
	t.own.change.Lock()
	defer t.own.change.Unlock()
	r := &toolRun{use: u, msg: h.parent.msg, parent: h.parent.use.ID}
	r.use.ID = id // the card's and the approval's id
	r.tool, _ = t.l.registry.Get(u.Name)
	if r.tool == nil {
		return outcome{text: fmt.Sprintf("The tool %s is not available now.", u.Name), isError: true, status: wire.ToolError}, nil
	}
	r.refuse = gate.Admit(t.mode, r.tool.Name(), r.tool.ReadOnly())
	err := t.dispatch(ctx, r)
	return r.out, err
}
