package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pilot/backend/toolname"
)

const (
	defaultTimeout = 120 * time.Second
	maxTimeout     = 600 * time.Second
)

// RunBashParams is the input of run_bash.
type RunBashParams struct {
	Command        string `json:"command" desc:"Shell command, run with bash -c in the project root."`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" desc:"Seconds before the command and everything it started are killed. Default: 120, at most 600."`
	Sandbox        *bool  `json:"sandbox,omitempty" desc:"false runs the command outside the sandbox, with the user's full rights: the user is asked every time (except in mode all). Leave it out to run in the sandbox."`
	Reason         string `json:"reason,omitempty" desc:"Required with sandbox: false: one sentence the user reads on why the command needs more than the sandbox allows."`
	Background     bool   `json:"background,omitempty" desc:"true starts the command as a background job (a server, a watcher) and returns at once with its job id and first output; read it with job_output, end it with job_stop. timeout_seconds does not apply to it."`
}

// outside reports whether p asks to run outside the sandbox.
func (p RunBashParams) outside() bool { return p.Sandbox != nil && !*p.Sandbox }

func labelRunBash(p RunBashParams) string {
	if p.Background {
		if p.outside() {
			return "→ Starting a background job outside the sandbox: " + truncate(firstLine(p.Command), 120) + " (" + truncate(firstLine(p.Reason), 120) + ")"
		}
		return "→ Starting a background job: " + truncate(firstLine(p.Command), 120)
	}
	if p.outside() {
		return "→ Running bash outside the sandbox: " + truncate(firstLine(p.Command), 120) + " (" + truncate(firstLine(p.Reason), 120) + ")"
	}
	return "→ Running bash: " + truncate(firstLine(p.Command), 120)
}

func runBash(_ context.Context, d Deps, p RunBashParams) (Result, error) {
	if strings.TrimSpace(p.Command) == "" {
		return errorf("command is empty. Give a shell command, for example \"go test ./...\"."), nil
	}
	if p.TimeoutSeconds < 0 {
		return errorf("timeout_seconds=%d is negative. Leave it out for the default of %d s, or give up to %d.", p.TimeoutSeconds, int(defaultTimeout.Seconds()), int(maxTimeout.Seconds())), nil
	}
	reason := strings.TrimSpace(p.Reason)
	if p.outside() && reason == "" {
		return errorf("sandbox: false needs a reason: one sentence the user reads before letting the command run outside the sandbox with their full rights. Call run_bash again with reason set, or without sandbox: false to run it in the sandbox."), nil
	}
	c := &Command{Command: p.Command, Dir: d.Root.Dir(), Timeout: defaultTimeout, Outside: p.outside(), Background: p.Background}
	if c.Outside {
		c.Reason = reason
	}
	prop := &Proposal{Tool: toolname.RunBash, Command: c}
	if p.TimeoutSeconds > 0 {
		c.Timeout = time.Duration(p.TimeoutSeconds) * time.Second
	}
	if c.Timeout > maxTimeout {
		prop.Note = fmt.Sprintf("Note: timeout_seconds=%d was lowered to the maximum of %d.", p.TimeoutSeconds, int(maxTimeout.Seconds()))
		c.Timeout = maxTimeout
	}
	where := ""
	if c.Outside {
		where = " outside the sandbox"
	}
	out := fmt.Sprintf("Proposed: run %q in %s%s (timeout %d s).", truncate(p.Command, 200), c.Dir, where, int(c.Timeout.Seconds()))
	if c.Background {
		out = fmt.Sprintf("Proposed: start %q in %s%s as a background job.", truncate(p.Command, 200), c.Dir, where)
	}
	if prop.Note != "" {
		out += " " + prop.Note
	}
	return Result{Output: out, Proposal: prop}, nil
}
