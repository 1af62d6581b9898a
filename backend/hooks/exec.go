package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/hostexec"
	"pilot/backend/procgroup"
	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// MaxOutput is the most of each stream (stdout, stderr) of a hook that is
// kept; the rest is read and dropped, and a note says how much.
const MaxOutput = 1 << 20

// MaxShown is the most of each stream shown on a card or sent to the
// model as a reason.
const MaxShown = 16 << 10

// exitBlock is the exit code that blocks.
const exitBlock = 2

// outcome is one hook's run and what it decided.
type outcome struct {
	run        wire.HookRun
	block      bool
	reason     string
	permission wire.HookDecision
	context    []string
	halt       bool
	stopReason string
	messages   []string
}

// exec runs one hook: sh -c in the event's folder, stdin the event's JSON,
// killed with its process group at its timeout.
func (s *Set) exec(ctx context.Context, file string, h settingsjson.Hook, in Input, stdin []byte) outcome {
	timeout := s.opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	project := s.opt.Project
	if project == "" {
		project = in.Cwd
	}
	sh, err := hostexec.Shell(os.Getenv("PATH"), project, in.Cwd)
	if err != nil {
		o := outcome{run: wire.HookRun{Event: string(in.HookEventName), Hook: h.Command, File: file, ExitCode: -1}}
		o.fail(fmt.Sprintf("The %s hook %q did not run: no shell to run it with (%v); the turn went on without it.", in.HookEventName, h.Command, err))
		return o
	}
	cmd := exec.CommandContext(ctx, sh, "-c", h.Command)
	cmd.Dir = in.Cwd
	base := s.opt.Env
	if base == nil {
		base = os.Environ()
	}
	// What the hook runs is found on absolute PATH entries outside the
	// project, as the shell itself is.
	cmd.Env = hostexec.Env(childenv.Env(base, in.Cwd, map[string]string{"CLAUDE_PROJECT_DIR": project, "PILOT_PROJECT_DIR": project}), project, in.Cwd)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	group := procgroup.New(cmd, false)
	cmd.Cancel = func() error { group.Kill(); return nil }
	// A grandchild that escaped the group and holds the pipes must not
	// hold the turn.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err = group.Start()
	if err == nil {
		err = group.Wait()
		group.Kill() // what the hook left running in its group
	}
	o := outcome{run: wire.HookRun{Event: string(in.HookEventName), Hook: h.Command, File: file,
		Ms: time.Since(start).Milliseconds(), Stdout: stdout.shown(), Stderr: stderr.shown()}}
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		o.run.TimedOut, o.run.ExitCode = true, -1
		o.fail(fmt.Sprintf("The %s hook %q did not finish within %s and was stopped; the turn went on without it.", in.HookEventName, h.Command, timeout))
	case err != nil && ctx.Err() != nil:
		o.run.ExitCode = -1
		o.fail(fmt.Sprintf("The %s hook %q was stopped because the turn was cancelled.", in.HookEventName, h.Command))
	case errors.As(err, &exit) && exit.ExitCode() == exitBlock:
		o.run.ExitCode = exitBlock
		o.blocked(in.HookEventName, h.Command, strings.TrimSpace(stderr.shown()))
	case errors.As(err, &exit):
		o.run.ExitCode = exit.ExitCode()
		why := strings.TrimSpace(stderr.shown())
		if why == "" {
			why = "it printed nothing on stderr"
		}
		o.fail(fmt.Sprintf("The %s hook %q failed with exit code %d (%s); the turn went on.", in.HookEventName, h.Command, exit.ExitCode(), why))
	case err != nil:
		o.run.ExitCode = -1
		o.fail(fmt.Sprintf("The %s hook %q could not be run (%v); the turn went on.", in.HookEventName, h.Command, err))
	default:
		o.parse(in.HookEventName, h.Command, stdout.String())
	}
	return o
}

// notRun is a hook of a trusted project file that is not run because a
// script its hooks name changed since the file was trusted: a
// non-blocking error saying which and what to do.
func notRun(e Event, file string, h settingsjson.Hook, changed []string) outcome {
	o := outcome{run: wire.HookRun{Event: string(e), Hook: h.Command, File: file, ExitCode: -1}}
	o.fail(fmt.Sprintf("The %s hook %q was not run: %s, which the hooks of %s run, changed since you trusted it. Look at what changed, then trust the project again (pilot trust, or the trust prompt).", e, h.Command, strings.Join(changed, ", "), file))
	return o
}

// fail records a non-blocking error.
func (o *outcome) fail(msg string) {
	o.run.Decision, o.run.Message = wire.HookError, msg
	o.messages = append(o.messages, msg)
}

// blocked records a blocking exit (2): stderr is the reason.
func (o *outcome) blocked(e Event, command, stderr string) {
	if stderr == "" {
		stderr = fmt.Sprintf("The %s hook %q blocked this without saying why.", e, command)
	}
	o.run.Decision, o.run.Message = wire.HookDeny, stderr
	switch e {
	case PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop:
		o.block, o.reason = true, stderr
		if e == PreToolUse {
			o.permission = wire.HookDeny
		}
	default: // the event cannot be blocked: the user is shown stderr
		o.run.Decision = wire.HookError
		o.messages = append(o.messages, stderr)
	}
}

// capped keeps the first MaxOutput bytes written to it and counts the rest.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	room := MaxOutput - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += int64(len(p) - max(room, 0))
	return len(p), nil
}

// String is what was kept, with a note when some was cut.
func (c *capped) String() string {
	if c.dropped == 0 {
		return c.buf.String()
	}
	return c.buf.String() + fmt.Sprintf("\n[cut: the hook printed %d more bytes past the %d Pilot keeps]", c.dropped, MaxOutput)
}

// shown is what a card shows and a reason carries: at most MaxShown bytes,
// with a note when more was printed.
func (c *capped) shown() string {
	if c.buf.Len() <= MaxShown && c.dropped == 0 {
		return c.buf.String()
	}
	total := int64(c.buf.Len()) + c.dropped
	cut := c.buf.Bytes()[:min(c.buf.Len(), MaxShown)]
	return strings.ToValidUTF8(string(cut), "") + fmt.Sprintf("\n[cut: the hook printed %d bytes; the first %d are shown]", total, len(cut))
}
