package agent

import (
	"strings"

	"pilot/backend/permission"
	"pilot/backend/toolname"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// kind is what one tool kind declares to the pipeline (perform): the rest
// of a call's path (hooks, storing, showing, the ledger's card) is the
// same for every kind.
type kind struct {
	// question reads the call: what to ask the gate and how to show the
	// question. It may end the call before the gate (c.tell) and report
	// false. nil: the call asks the gate nothing itself (task's helper
	// judges each of its own calls; job_output and todo_write only touch
	// the session's own state).
	question func(c *call) (question, bool)
	// effect is what the call does once allowed; its result and error go
	// to the one ending (call.end), unless it words the ending itself
	// (c.tell). errAgain sends the call through the gate and the user
	// again.
	effect func(c *call) (tools.Result, error)
	// failed begins what a failure says, before the error.
	failed string
	// proposes: the tool builds a proposal first (no effect), which the
	// question and the effect read (c.proposal).
	proposes bool
	// serial: one question of this kind at a time across the turn (a
	// second call to a host finds the first one's yes).
	serial bool
	// streams: its output so far is told when the user stops it.
	streams bool
}

// toolFailed begins what the failure of a tool's own Execute says.
const toolFailed = "The tool failed: "

// proposing is the part of a change-making call before its kind's: the
// tool builds its proposal.
var proposing = kind{failed: toolFailed}

// kinds are the declarations of the tools the model can call, by name
// (MCP tools, named by their servers, are mcpKind). Set in init: a kind's
// effect may dispatch calls of its own (a custom agent's changes).
var kinds map[string]*kind

func init() {
	kinds = map[string]*kind{
		toolname.ListFiles:   &readKind,
		toolname.ReadFile:    &readKind,
		toolname.Glob:        &readKind,
		toolname.Grep:        &readKind,
		toolname.Diagnostics: &readKind,
		toolname.Skill:       &readKind,
		toolname.WriteFile:   &filesKind,
		toolname.PatchFile:   &filesKind,
		toolname.MultiPatch:  &filesKind,
		toolname.RunBash:     &commandKind,
		toolname.JobOutput:   &jobOutputKind,
		toolname.JobStop:     &jobStopKind,
		toolname.TodoWrite:   &sessionKind,
		toolname.PresentPlan: &sessionKind,
		toolname.Task:        &taskKind,
		toolname.WebFetch:    &fetchKind,
		toolname.WebSearch:   &searchKind,
		toolname.Remember:    &rememberKind,
	}
}

// kindOf is the declaration of r's kind: a tool the registry does not
// know is answered by it (the list of the real tools).
func kindOf(r *toolRun) *kind {
	if k := declared(r.use.Name); k != nil && r.tool != nil {
		return k
	}
	return &unknownKind
}

// declared is the declaration of the tool called name, nil when there is
// none (TestEveryToolKindIsDeclared keeps every tool declared).
func declared(name string) *kind {
	if strings.HasPrefix(name, permission.MCPPrefix) {
		return &mcpKind
	}
	return kinds[name]
}

// execute is the effect of a tool the registry runs as it is.
func execute(c *call) (tools.Result, error) {
	return c.t.l.registry.Execute(c.ctx, c.r.use.Name, c.r.use.Input)
}

// readKind: a read-only tool, run once the gate lets it (deny rules on
// read tools refuse it; an ask rule on what it reads, or a PreToolUse
// hook, asks).
var readKind = kind{
	question: func(c *call) (question, bool) {
		r := c.r
		q := question{call: c.t.readCall(r.use.Name, r.use.Input),
			card:     wire.Approval{Command: c.t.l.registry.Label(r.use.Name, r.use.Input)},
			rejected: "Not run: a hook asked the user about this call and the user said no."}
		if r.use.Name == toolname.ReadFile {
			c.warm = q.call.Paths // its language server is warmed once it is read
		}
		if len(q.call.Paths) > 0 {
			q.byRule = &shown{card: wire.Approval{Command: r.use.Name + " " + q.call.Paths[0], Paths: q.call.Paths},
				rejected: "The user rejected this read; the file was not read."}
		}
		return q, true
	},
	effect: func(c *call) (tools.Result, error) {
		if c.grant.asked {
			c.running(c.ctx)
		}
		res, err := execute(c)
		if err == nil && !res.IsError {
			c.warmServers(c.warm)
		}
		return res, err
	},
	failed: toolFailed,
}

// unknownKind: a tool the registry does not hold; the registry answers
// with the list of the real tools.
var unknownKind = kind{effect: execute, failed: toolFailed}

// sessionKind: the session's own tools (todo_write, present_plan), which
// only change its task list or end the turn with a plan: no gate (the
// mode admits present_plan, gate.Admit).
var sessionKind = kind{effect: execute, failed: toolFailed}
