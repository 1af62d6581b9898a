package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pilot/backend/sandbox"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// firstOutputWait is how long starting a job waits for its first line of
// output before the call returns.
const firstOutputWait = time.Second

// maxJobRead is the most of a job's output one result gives the model:
// the newest part.
const maxJobRead = 32 << 10

// runJob starts an approved background command (the folder is held, the
// sandbox's network questions registered as run) and answers with its id
// and first output.
func runJob(c *call, sess *sandbox.Session, run *sandboxRun, release func(), waited time.Duration) {
	l, r, ctx, state := c.t.l, c.r, c.ctx, c.grant.state
	bg := context.WithoutCancel(ctx)
	l.jobs.jobsBaseline(bg)
	j, err := l.jobs.startJob(ctx, r, c.proposal, sess)
	if err == nil {
		select {
		case <-j.firstLine:
		case <-time.After(firstOutputWait):
		case <-ctx.Done():
		}
	}
	var refused []string
	if run != nil {
		refused = run.end()
	}
	if err == nil {
		l.jobs.sweepJobs(bg) // what it changed in its first moment is the job's
	}
	release()
	switch {
	case err != nil && ctx.Err() != nil:
		o := cancelled(true)
		o.approval = state
		c.tell(o)
		return
	case err != nil:
		l.m.log.Warn("starting a background job", "session", l.id, "err", err)
		c.fail("The background job could not be started: "+err.Error(), true)
		return
	}
	r.view.JobID = j.id
	var b strings.Builder
	where := "in the sandbox"
	if !j.sandboxed {
		where = "outside the sandbox"
	}
	fmt.Fprintf(&b, "Started background job %s %s: %s\n", j.id, where, clipCommand(j.command, 200))
	b.WriteString(j.modelRead())
	fmt.Fprintf(&b, "\nRead its output with job_output {\"job_id\": %q} (wait_seconds waits for more); stop it with job_stop when you no longer need it.", j.id)
	if len(refused) > 0 {
		b.WriteString("\n\n" + strings.Join(refused, "\n"))
	}
	b.WriteString(waitNote(waited))
	c.tell(outcome{text: b.String() + said(c.grant.feedback), status: wire.ToolDone, approval: state, feedback: c.grant.feedback})
}

// modelRead gives the model the job's output since its last read, and
// where the job stands.
func (j *job) modelRead() string {
	j.mu.Lock()
	text, _, dropped := j.out.since(j.read)
	j.read = j.out.total
	state, code := j.state, j.code
	j.mu.Unlock()
	var b strings.Builder
	switch state {
	case wire.JobRunning:
		fmt.Fprintf(&b, "Job %s is running.", j.id)
	case wire.JobStopped:
		fmt.Fprintf(&b, "Job %s was stopped (exit code %d).", j.id, *code)
	default:
		fmt.Fprintf(&b, "Job %s has ended: exit code %d.", j.id, *code)
	}
	if len(text) > maxJobRead {
		dropped += int64(len(text) - maxJobRead)
		text = text[len(text)-maxJobRead:]
	}
	if len(text) == 0 && dropped == 0 {
		b.WriteString(" No new output since your last read.")
		return b.String()
	}
	b.WriteString(" Output since your last read:\n")
	if dropped > 0 {
		b.WriteString(droppedMark(dropped))
	}
	b.WriteString(strings.ToValidUTF8(string(text), "\uFFFD"))
	return b.String()
}

// waitOutput waits up to d for output the model has not read, or for the
// job's end; false when ctx ended first.
func (j *job) waitOutput(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		j.mu.Lock()
		ready := j.out.total > j.read || j.state != wire.JobRunning
		ch := j.changed
		j.mu.Unlock()
		if ready {
			return true
		}
		select {
		case <-ch:
		case <-timer.C:
			return true
		case <-ctx.Done():
			return false
		}
	}
}

// jobOf finds the call's job; when there is none, the call ends saying
// so.
func jobOf(c *call, id string) *job {
	js := &c.t.l.jobs
	if j := js.get(id); j != nil {
		return j
	}
	text := fmt.Sprintf("There is no background job %q in this session: its jobs are %s. Use the id run_bash gave when it started the job.", id, js.ids())
	if js.ids() == "" {
		text = fmt.Sprintf("There is no background job %q: this session has started none. Start one with run_bash and \"background\": true.", id)
	}
	c.fail(text, false)
	return nil
}

// jobOutputKind: job_output, the output of one of the session's jobs
// since the model's last read. Pilot's own jobs: no gate.
var jobOutputKind = kind{effect: func(c *call) (tools.Result, error) {
	p, bad := tools.Params[tools.JobOutputParams](c.r.tool, c.r.use.Input)
	if bad != nil {
		return *bad, nil
	}
	if p.WaitSeconds < 0 {
		return tools.Result{Output: fmt.Sprintf("wait_seconds=%d is negative. Leave it out to read at once, or give up to %d.", p.WaitSeconds, tools.MaxJobWait), IsError: true}, nil
	}
	j := jobOf(c, p.JobID)
	if j == nil {
		return tools.Result{}, nil
	}
	note := ""
	if p.WaitSeconds > tools.MaxJobWait {
		note = fmt.Sprintf("\nNote: wait_seconds=%d was lowered to the maximum of %d.", p.WaitSeconds, tools.MaxJobWait)
		p.WaitSeconds = tools.MaxJobWait
	}
	if p.WaitSeconds > 0 && !j.waitOutput(c.ctx, time.Duration(p.WaitSeconds)*time.Second) {
		c.tell(cancelled(true))
		return tools.Result{}, nil
	}
	c.r.view.JobID = j.id
	return tools.Result{Output: j.modelRead() + note}, nil
}}

// jobStopKind: job_stop, which ends one of the session's jobs (its whole
// process group). Pilot's own jobs: no gate.
var jobStopKind = kind{effect: func(c *call) (tools.Result, error) {
	p, bad := tools.Params[tools.JobStopParams](c.r.tool, c.r.use.Input)
	if bad != nil {
		return *bad, nil
	}
	j := jobOf(c, p.JobID)
	if j == nil {
		return tools.Result{}, nil
	}
	c.r.view.JobID = j.id
	if j.view().State != wire.JobRunning {
		return tools.Result{Output: "Job " + j.id + " had already ended; nothing was stopped. " + j.modelRead()}, nil
	}
	killed := j.stop(context.WithoutCancel(c.ctx))
	how := "SIGTERM"
	if killed {
		how = fmt.Sprintf("SIGTERM, then SIGKILL when it had not ended within %d s", int(tools.StopGrace.Seconds()))
	}
	return tools.Result{Output: fmt.Sprintf("Stopped job %s (%s): its whole process group was sent %s. %s", j.id, clipCommand(j.command, 200), how, j.modelRead())}, nil
}}
