package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pilot/backend/ledger"
	"pilot/backend/sandbox"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// DefaultJobsPerSession is how many background jobs a session may run at
// once when Options.JobsPerSession says nothing.
const DefaultJobsPerSession = 3

// ErrNoJob: the session has no job of that id.
var ErrNoJob = errors.New("no such background job")

// jobs is a session's background jobs (run_bash background: true), in
// the order they started. Its ids are "1", "2", ... for the life of the
// Manager.
type jobs struct {
	l      *live // the session they are of
	mu     sync.Mutex
	next   int
	list   []*job
	closed bool // the session was released: no job starts any more
	// cp is the folder as the running jobs' file effects are measured
	// from (see jobs_ledger.go); nil when none runs or there is no ledger.
	cp *ledger.Command
}

// job is one background job.
type job struct {
	l          *live
	id         string
	command    string
	toolUseID  string
	callID     int64 // the store's id of the run_bash call that started it
	sandboxed  bool
	started    time.Time
	proc       *tools.Job
	recorded   atomic.Bool   // its end's changes are recorded (watch)
	over       chan struct{} // closed once its end is recorded and told
	firstLine  chan struct{} // closed at its first newline (or its end)
	sawNewline bool

	mu       sync.Mutex
	out      *ring
	read     int64 // the model's read offset
	state    wire.JobState
	code     *int
	ended    time.Time
	stopping bool          // a stop was asked: its end is "stopped"
	changed  chan struct{} // closed and replaced at new output and at the end
}

// jobsLimit is how many jobs a session may run at once.
func (m *Manager) jobsLimit() int {
	if m.opt.JobsPerSession != nil {
		if n := m.opt.JobsPerSession(); n > 0 {
			return n
		}
	}
	return DefaultJobsPerSession
}

// running returns the session's running jobs, oldest first.
func (js *jobs) running() []*job {
	return js.where(func(j *job) bool { return j.view().State == wire.JobRunning })
}

// where returns the session's jobs that keep says, oldest first.
func (js *jobs) where(keep func(*job) bool) []*job {
	js.mu.Lock()
	defer js.mu.Unlock()
	var out []*job
	for _, j := range js.list {
		if keep(j) {
			out = append(out, j)
		}
	}
	return out
}

// owners are the jobs whose file changes the ledger has yet to record:
// the running ones, and one that ended until its end is recorded (else a
// sweep in between would find no owner and drop what it changed).
func (js *jobs) owners() []*job {
	return js.where(func(j *job) bool { return j.view().State == wire.JobRunning || !j.recorded.Load() })
}

// get returns the job of id, or nil.
func (js *jobs) get(id string) *job {
	js.mu.Lock()
	defer js.mu.Unlock()
	for _, j := range js.list {
		if j.id == strings.TrimSpace(id) {
			return j
		}
	}
	return nil
}

// ids lists the session's job ids ("1, 2"), "" when it has none.
func (js *jobs) ids() string {
	js.mu.Lock()
	defer js.mu.Unlock()
	ids := make([]string, len(js.list))
	for i, j := range js.list {
		ids[i] = j.id
	}
	return strings.Join(ids, ", ")
}

// full returns the sentence for the model when the session already runs
// as many jobs as it may, naming them; "" when one more may start.
func (js *jobs) jobsFull() string {
	l := js.l
	run := l.jobs.running()
	limit := l.m.jobsLimit()
	if len(run) < limit {
		return ""
	}
	names := make([]string, len(run))
	for i, j := range run {
		names[i] = fmt.Sprintf("job %s (%s)", j.id, clipCommand(j.command, 80))
	}
	return fmt.Sprintf("The background job was not started: this session already runs %s, the most the settings allow (%d): %s. Stop one with job_stop, or wait until one ends, then start it again.",
		countJobs(len(run)), limit, strings.Join(names, ", "))
}

// startJob starts the approved background command p as the session's
// next job, in sess (the pod) or on the host when sess is nil.
func (js *jobs) startJob(ctx context.Context, r *toolRun, p *tools.Proposal, sess *sandbox.Session) (*job, error) {
	l := js.l
	js.mu.Lock()
	if js.closed {
		js.mu.Unlock()
		return nil, errors.New("the session was closed")
	}
	js.next++
	j := &job{l: l, id: strconv.Itoa(js.next), command: p.Command.Command, toolUseID: r.use.ID, callID: r.rec.ID, sandboxed: sess != nil,
		started: l.m.opt.Now(), over: make(chan struct{}), firstLine: make(chan struct{}), out: newRing(JobOutputCap), state: wire.JobRunning, changed: make(chan struct{})}
	js.mu.Unlock()
	proc, err := l.registry.StartJob(ctx, p, sess, j.write)
	js.mu.Lock()
	if err != nil {
		if js.next == len(js.list)+1 {
			js.next-- // the id goes to the next job that starts
		}
		js.mu.Unlock()
		return nil, err
	}
	j.proc = proc
	js.list = append(js.list, j)
	closed := js.closed
	js.mu.Unlock()
	l.jobs.emitJob(j)
	l.m.jobsWG.Add(1)
	go j.watch()
	if closed { // the session was released while it started
		j.stop(context.WithoutCancel(ctx))
	}
	return j, nil
}

// write takes a chunk of the job's output (from one goroutine).
func (j *job) write(p []byte) {
	j.mu.Lock()
	off := j.out.total
	j.out.write(p)
	close(j.changed)
	j.changed = make(chan struct{})
	if !j.sawNewline && slices.Contains(p, '\n') {
		j.sawNewline = true
		close(j.firstLine)
	}
	j.mu.Unlock()
	j.l.m.out.jobOutput(j.l.id, j.id, off, p)
}

// watch waits for the job's end, records what it changed and tells it.
func (j *job) watch() {
	defer j.l.m.jobsWG.Done()
	code, err := j.proc.Exit()
	if err != nil {
		j.l.m.log.Warn("a background job's sandbox ended", "session", j.l.id, "job", j.id, "err", err)
	}
	j.mu.Lock()
	j.state = wire.JobExited
	if j.stopping {
		j.state = wire.JobStopped
	}
	j.code, j.ended = &code, j.l.m.opt.Now()
	close(j.changed)
	j.changed = make(chan struct{})
	if !j.sawNewline {
		j.sawNewline = true
		close(j.firstLine)
	}
	j.mu.Unlock()
	j.l.jobs.jobEnded()
	j.recorded.Store(true)
	j.l.jobs.emitJob(j)
	close(j.over)
}

// stop ends the job (TERM, then KILL) and waits until its end is
// recorded; it reports whether it took SIGKILL. A job already ended is
// left as it is.
func (j *job) stop(ctx context.Context) (killed bool) {
	j.mu.Lock()
	if j.state != wire.JobRunning {
		j.mu.Unlock()
		return false
	}
	j.stopping = true
	j.mu.Unlock()
	killed = j.proc.Stop(ctx, tools.StopGrace)
	select {
	case <-j.over:
	case <-ctx.Done():
	}
	return killed
}

// view is the job as the window shows it.
func (j *job) view() wire.Job {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.viewLocked()
}

// viewLocked is view with j.mu held.
func (j *job) viewLocked() wire.Job {
	v := wire.Job{SessionID: j.l.id, ID: j.id, Command: j.command, State: j.state, ExitCode: j.code, ToolCallID: j.toolUseID,
		Sandboxed: j.sandboxed, StartedAt: j.started.UnixMilli(), Bytes: j.out.total}
	if !j.ended.IsZero() {
		v.EndedAt = j.ended.UnixMilli()
	}
	return v
}

// held returns the output the job still holds.
func (j *job) held() wire.JobOutput {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := j.viewLocked() // with the text under one lock: Bytes is where Text ends
	text, start, _ := j.out.since(0)
	return wire.JobOutput{Job: v, Text: string(text), Start: start, Cut: start > 0}
}

func (js *jobs) emitJob(j *job) {
	l := js.l
	v := j.view()
	l.send(wire.AgentJob, func(q wire.Seq) any { return wire.JobPayload{Seq: q, Job: v} })
}

// stopJobs stops every running job of the session at once and waits for
// them; it returns the jobs it stopped.
func (js *jobs) stopJobs(ctx context.Context) []wire.Job {
	l := js.l
	run := l.jobs.running()
	var wg sync.WaitGroup
	for _, j := range run {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.stop(ctx)
		}()
	}
	wg.Wait()
	out := make([]wire.Job, len(run))
	for i, j := range run {
		out[i] = j.view()
	}
	return out
}

// closeJobs stops the session's jobs for good: none starts after it.
func (js *jobs) closeJobs(ctx context.Context) {
	l := js.l
	l.jobs.mu.Lock()
	l.jobs.closed = true
	l.jobs.mu.Unlock()
	l.jobs.stopJobs(ctx)
}

// Jobs returns a session's background jobs, running and ended, oldest
// first.
func (m *Manager) Jobs(sessionID int64) []wire.Job {
	out := []wire.Job{}
	l := m.loaded(sessionID)
	if l == nil {
		return out
	}
	l.jobs.mu.Lock()
	list := slices.Clone(l.jobs.list)
	l.jobs.mu.Unlock()
	for _, j := range list {
		out = append(out, j.view())
	}
	return out
}

// JobOutput returns the output Pilot holds of one job (the last
// JobOutputCap bytes); ErrNoJob when the session has no such job.
func (m *Manager) JobOutput(sessionID int64, jobID string) (wire.JobOutput, error) {
	l := m.loaded(sessionID)
	if l == nil {
		return wire.JobOutput{}, ErrNoJob
	}
	j := l.jobs.get(jobID)
	if j == nil {
		return wire.JobOutput{}, ErrNoJob
	}
	return j.held(), nil
}

// StopJob stops one job's whole process group (SIGTERM, then SIGKILL
// after tools.StopGrace) and returns once it has ended; a job that
// already ended is left as it is. ErrNoJob when there is no such job.
func (m *Manager) StopJob(ctx context.Context, sessionID int64, jobID string) error {
	l := m.loaded(sessionID)
	if l == nil {
		return ErrNoJob
	}
	j := l.jobs.get(jobID)
	if j == nil {
		return ErrNoJob
	}
	j.stop(ctx)
	return nil
}

// StopJobs stops every running job of a session and returns them as they
// ended (pilot -p does at the end of its turn).
func (m *Manager) StopJobs(ctx context.Context, sessionID int64) []wire.Job {
	l := m.loaded(sessionID)
	if l == nil {
		return nil
	}
	return l.jobs.stopJobs(ctx)
}

// RunningJobs returns the running jobs of every session (the quit
// question names them).
func (m *Manager) RunningJobs() []wire.Job {
	m.mu.Lock()
	lives := make([]*live, 0, len(m.lives))
	for _, l := range m.lives {
		lives = append(lives, l)
	}
	m.mu.Unlock()
	var out []wire.Job
	for _, l := range lives {
		for _, j := range l.jobs.running() {
			out = append(out, j.view())
		}
	}
	slices.SortFunc(out, func(a, b wire.Job) int { return int(a.StartedAt - b.StartedAt) })
	return out
}

// loaded returns the session's live side when it has one, without
// loading it.
func (m *Manager) loaded(sessionID int64) *live {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lives[sessionID]
}

// countJobs is "1 background job", "2 background jobs".
func countJobs(n int) string {
	if n == 1 {
		return "1 background job"
	}
	return strconv.Itoa(n) + " background jobs"
}

// clipCommand shortens s to its first line and at most n runes.
func clipCommand(s string, n int) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	if cut {
		return s + " …"
	}
	return s
}
