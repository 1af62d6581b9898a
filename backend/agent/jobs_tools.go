package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pilot/backend/sandbox"
	"pilot/backend/store"
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
func (t *turn) runJob(ctx context.Context, r *toolRun, p *tools.Proposal, sess *sandbox.Session, run *sandboxRun, release func(), waited time.Duration, state store.Approval) {
	l := t.l
	bg := context.WithoutCancel(ctx)
	l.jobsBaseline(bg)
	j, err := l.startJob(ctx, r, p, sess)
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
		l.sweepJobs(bg) // what it changed in its first moment is the job's
	}
	release()
	switch {
	case err != nil && ctx.Err() != nil:
		r.out = cancelled(true)
		r.out.approval = state
		return
	case err != nil:
		l.m.log.Warn("starting a background job", "session", l.id, "err", err)
		r.out = outcome{text: "The background job could not be started: " + err.Error(), isError: true, status: store.ToolError, approval: state}
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
	r.out = outcome{text: b.String() + said(r.out.feedback), status: store.ToolDone, approval: state, feedback: r.out.feedback}
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

// jobOf finds the call's job; when there is none, r.out says so.
func (t *turn) jobOf(r *toolRun, id string) *job {
	if j := t.l.jobs.get(id); j != nil {
		return j
	}
	text := fmt.Sprintf("There is no background job %q in this session: its jobs are %s. Use the id run_bash gave when it started the job.", id, t.l.jobs.ids())
	if t.l.jobs.ids() == "" {
		text = fmt.Sprintf("There is no background job %q: this session has started none. Start one with run_bash and \"background\": true.", id)
	}
	r.out = outcome{text: text, isError: true, status: store.ToolError}
	return nil
}

// runJobOutput answers job_output.
func (t *turn) runJobOutput(ctx context.Context, r *toolRun) {
	p, bad := tools.Params[tools.JobOutputParams](r.tool, r.use.Input)
	if bad != nil {
		r.out = outcome{text: bad.Output, isError: true, status: store.ToolError}
		return
	}
	if p.WaitSeconds < 0 {
		r.out = outcome{text: fmt.Sprintf("wait_seconds=%d is negative. Leave it out to read at once, or give up to %d.", p.WaitSeconds, tools.MaxJobWait), isError: true, status: store.ToolError}
		return
	}
	j := t.jobOf(r, p.JobID)
	if j == nil {
		return
	}
	note := ""
	if p.WaitSeconds > tools.MaxJobWait {
		note = fmt.Sprintf("\nNote: wait_seconds=%d was lowered to the maximum of %d.", p.WaitSeconds, tools.MaxJobWait)
		p.WaitSeconds = tools.MaxJobWait
	}
	if p.WaitSeconds > 0 && !j.waitOutput(ctx, time.Duration(p.WaitSeconds)*time.Second) {
		r.out = cancelled(true)
		return
	}
	r.view.JobID = j.id
	r.out = outcome{text: j.modelRead() + note, status: store.ToolDone}
}

// runJobStop answers job_stop.
func (t *turn) runJobStop(ctx context.Context, r *toolRun) {
	p, bad := tools.Params[tools.JobStopParams](r.tool, r.use.Input)
	if bad != nil {
		r.out = outcome{text: bad.Output, isError: true, status: store.ToolError}
		return
	}
	j := t.jobOf(r, p.JobID)
	if j == nil {
		return
	}
	r.view.JobID = j.id
	if j.view().State != wire.JobRunning {
		r.out = outcome{text: "Job " + j.id + " had already ended; nothing was stopped. " + j.modelRead(), status: store.ToolDone}
		return
	}
	killed := j.stop(context.WithoutCancel(ctx))
	how := "SIGTERM"
	if killed {
		how = fmt.Sprintf("SIGTERM, then SIGKILL when it had not ended within %d s", int(tools.StopGrace.Seconds()))
	}
	r.out = outcome{text: fmt.Sprintf("Stopped job %s (%s): its whole process group was sent %s. %s", j.id, clipCommand(j.command, 200), how, j.modelRead()), status: store.ToolDone}
}
