package cli

import (
	"fmt"
	"strings"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
	"pilot/backend/wire"
)

// answerForm answers an MCP server's request for input (a form shown on
// the call's card in the window) as --elicit says: decline, said on
// stderr with the server's name and the flag; or defaults, the form's
// default values (SEP-1034), declined with a sentence when a required
// field has none or they do not fit the form.
func (t *terminal) answerForm(a wire.Approval) {
	e := wire.Elicitation{}
	if a.Elicitation != nil {
		e = *a.Elicitation
	}
	server := visible.Line(e.Server)
	d := wire.ElicitationDecision{Action: wire.ElicitDecline, Why: "declined: pilot ran without the window (--elicit=decline)"}
	say := fmt.Sprintf("pilot: declined the MCP server %q's request for input: a run without the window declines them; --elicit=defaults accepts a form's default values.", server)
	if t.elicit == elicitDefaults {
		content, missing := service.FormDefaults(e)
		if len(missing) > 0 {
			d.Why = "declined: --elicit=defaults, and a required field has no default"
			say = fmt.Sprintf("pilot: declined the MCP server %q's request for input: --elicit=defaults cannot answer it, its required fields %s have no default.", server, visible.Line(strings.Join(missing, ", ")))
		} else {
			d = wire.ElicitationDecision{Action: wire.ElicitAccept, Content: content, Why: "the form's default values, sent by --elicit=defaults"}
			say = fmt.Sprintf("pilot: answered the MCP server %q's request for input with its form's default values (--elicit=defaults).", server)
		}
	}
	if err := t.answer.DecideElicitation(a.ID, d); err != nil && d.Action == wire.ElicitAccept {
		say = fmt.Sprintf("pilot: declined the MCP server %q's request for input: its form's default values do not fit it (%s).", server, visible.Line(err.Error()))
		_ = t.answer.DecideElicitation(a.ID, wire.ElicitationDecision{Action: wire.ElicitDecline, Why: "declined: the form's default values do not fit it"})
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLine()
	fmt.Fprintln(t.tio.Stderr, say)
}
