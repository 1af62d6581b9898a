package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pilot/backend/gate"
	"pilot/backend/netproxy"
	"pilot/backend/sandbox"
	"pilot/backend/store"
	"pilot/backend/tools"
	"pilot/backend/wire"
)

// runChange runs a change-making call: the tool builds its proposal (which
// has no effect), the gate or the user decides, and only then is anything
// applied.
func (t *turn) runChange(ctx context.Context, r *toolRun) {
	res, ok := t.execute(ctx, r)
	switch {
	case !ok:
	case res.IsError || res.Proposal == nil:
		r.out = outcome{text: res.Output, isError: res.IsError, status: statusOf(res.IsError)}
	case res.Proposal.Command != nil:
		t.runCommand(ctx, r, res.Proposal)
	case res.Proposal.MCP != nil:
		t.runMCP(ctx, r, res.Proposal)
	default:
		t.runFiles(ctx, r, res.Proposal)
	}
}

// awaiting shows the call as waiting for the user's decision.
func (t *turn) awaiting(ctx context.Context, r *toolRun, approvalID string) {
	l := t.l
	if err := l.m.st.ToolCalls.SetStatus(context.WithoutCancel(ctx), r.rec.ID, store.ToolAwaitingApproval); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status, r.view.ApprovalID = wire.ToolStatus(store.ToolAwaitingApproval), approvalID
	l.emitTool(r.view)
	l.setState(AwaitingApproval)
}

// running shows the call as running again after a decision.
func (t *turn) running(ctx context.Context, r *toolRun) {
	l := t.l
	l.setState(ToolExecuting)
	if r.view.Status == wire.ToolRunning {
		return
	}
	if err := l.m.st.ToolCalls.SetStatus(context.WithoutCancel(ctx), r.rec.ID, store.ToolRunning); err != nil {
		l.m.log.Warn("saving tool status", "err", err)
	}
	r.view.Status = wire.ToolStatus(store.ToolRunning)
	l.emitTool(r.view)
}

// runCommand passes a command through the gate (asking the user where it
// says so) and runs it, in the session's sandbox where the gate says so,
// streaming its output. What the sandbox blocked is told after it.
func (t *turn) runCommand(ctx context.Context, r *toolRun, p *tools.Proposal) {
	l := t.l
	c := p.Command
	if c.Background {
		if full := l.jobsFull(); full != "" {
			r.out = outcome{text: full, isError: true, status: store.ToolError}
			return
		}
	}
	status := l.m.opt.Sandbox.probe()
	call := gate.Call{Tool: r.use.Name, Command: c.Command, SandboxReady: status.Ready, Unsandboxed: c.Outside, Reason: c.Reason}
	a := wire.Approval{Command: c.Command, Cwd: c.Dir, TimeoutSeconds: int(c.Timeout.Seconds()), Reason: c.Reason, Background: c.Background}
	if c.Background {
		a.TimeoutSeconds = 0 // a job runs until stopped
	}
	info := &wire.SandboxInfo{Outside: c.Outside, Reason: c.Reason}
	if !status.Ready && !c.Outside {
		a.NoSandbox = "The sandbox cannot start on this machine, so this command would run with your full rights: " + status.Why
		info.Unavailable = status.Why
	}
	rejected := "The user rejected this command; it was not run."
	if c.Outside {
		rejected = "The user did not let this command run outside the sandbox; it was not run. Run it in the sandbox (leave out sandbox: false), or do without it."
	}
	d := t.judge(ctx, call)
	state := store.ApprovalAuto
	switch d.Verdict {
	case gate.Refuse:
		r.out = refusedBy(t.mode, d)
		return
	case gate.Ask:
		var ok bool
		if state, ok = t.asked(ctx, r, d, a, rejected); !ok {
			return
		}
	}
	opt := tools.ApplyOptions{OnOutput: func(chunk string) { l.m.out.output(l.id, r.use.ID, chunk) }}
	var run *sandboxRun
	if d.Sandboxed {
		sess, err := l.sandbox()
		if err != nil {
			l.m.log.Warn("the session's sandbox", "session", l.id, "err", err)
			r.out = outcome{text: "The command was not run: " + err.Error() + ".", isError: true, status: store.ToolError, approval: state}
			return
		}
		opt.Sandbox, info.Sandboxed = sess, true
		run = t.startRun(ctx, r, c.Command)
	}
	t.running(ctx, r)
	t.saveSandbox(ctx, r, info)
	bg := context.WithoutCancel(ctx)
	release, waited, err := t.hold(ctx, r, "running "+c.Command)
	if err != nil {
		if run != nil {
			run.end()
		}
		r.out = cancelled(false)
		if ctx.Err() == nil {
			r.out = outcome{text: "The command was not run: Pilot could not take this folder for it (" + err.Error() + ").", isError: true, status: store.ToolError}
		}
		r.out.approval = state
		return
	}
	if c.Background {
		t.runJob(ctx, r, p, opt.Sandbox, run, release, waited, state)
		return
	}
	cp := t.beforeCommand(bg)
	res, err := l.registry.Apply(ctx, p, opt)
	var refused []string // the proxy's refusals: the output does not hold them
	if run != nil {
		refused = run.end()
	}
	changed, runsCode := t.afterCommand(bg, r, cp, c.Command)
	release()
	res.Output += waitNote(waited) + runsCode
	if blocked := append(refused, res.Blocked...); len(blocked) > 0 {
		info.Blocked = blocked
		t.saveSandbox(ctx, r, info)
	}
	if len(refused) > 0 {
		res.Output += "\n\n" + strings.Join(refused, "\n")
	}
	switch {
	case err != nil && ctx.Err() != nil:
		text := cancelled(true).text
		if res.Output != "" {
			text += "\nOutput so far:\n" + res.Output
		}
		r.out = outcome{text: text, isError: true, status: store.ToolCancelled, approval: state}
	case err != nil:
		l.m.log.Warn("running a command", "session", l.id, "sandboxed", d.Sandboxed, "err", err)
		r.out = outcome{text: "The command could not be run: " + err.Error(), isError: true, status: store.ToolError, approval: state}
	default:
		r.out = outcome{text: res.Output + said(r.out.feedback), isError: res.IsError, status: statusOf(res.IsError), approval: state, feedback: r.out.feedback}
	}
	t.diagnose(ctx, r, changed)
}

// said renders the user's feedback for the model.
func said(feedback string) string {
	if f := strings.TrimSpace(feedback); f != "" {
		return "\nThe user said: " + f
	}
	return ""
}

// Sandbox is how run_bash commands are confined (Options.Sandbox). The
// zero value is the machine's: sandbox.Probe and sandbox.NewSession.
type Sandbox struct {
	// Probe says whether the sandbox can start here (nil: sandbox.Probe).
	Probe func() sandbox.Status
	// New prepares a session's pod (nil: sandbox.NewSession); Close ends
	// it (nil: its Close).
	New   func(sandbox.Policy) *sandbox.Session
	Close func(*sandbox.Session) error
	// Hidden are the extra paths to hide (Settings), read when a
	// session's pod is made; nil: none.
	Hidden func() []string
	// Sockets are the host's unix sockets commands may connect to
	// (Settings), read when a session's pod is made; nil: none.
	Sockets func() []string
	// PilotHome is hidden from commands; Home is the user's home ("":
	// os.UserHomeDir), CacheDir the folder of the per-project caches
	// kept between sessions ("": os.UserCacheDir()/pilot/sandbox-cache).
	PilotHome, Home, CacheDir string
}

// cacheRoot is the folder of the per-project caches ("" when the user
// has no cache folder).
func (s Sandbox) cacheRoot() string {
	if s.CacheDir != "" {
		return s.CacheDir
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "pilot", "sandbox-cache")
	}
	return ""
}

func (s Sandbox) probe() sandbox.Status {
	if s.Probe != nil {
		return s.Probe()
	}
	return sandbox.Probe()
}

// pod is a session's sandbox: made at its first sandboxed command, ended
// when the session is released or the Manager closes.
type pod struct {
	mu     sync.Mutex
	sess   *sandbox.Session
	closed bool
	run    *sandboxRun     // the command running in it, if any
	hosts  map[string]bool // hosts the user let commands reach in this session
}

// sandboxRun is a command running in the pod: the network questions its
// connections raise are asked on its card, and what was blocked is told
// with its result.
type sandboxRun struct {
	t       *turn
	r       *toolRun
	command string
	ctx     context.Context
	cancel  context.CancelFunc
	asking  sync.WaitGroup // network questions under way
	mu      sync.Mutex
	block   []string
}

func (s *sandboxRun) blocked(sentence string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.block, sentence) { // the proxy reports the refusals Decide made too
		s.block = append(s.block, sentence)
	}
}

// sandbox returns the session's pod, making it at the first call.
func (l *live) sandbox() (*sandbox.Session, error) {
	p := &l.pod
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("the session's sandbox was closed")
	}
	if p.sess != nil {
		return p.sess, nil
	}
	o := l.m.opt.Sandbox
	home := o.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	cache := o.cacheRoot()
	if cache != "" {
		cache = filepath.Join(cache, strconv.FormatInt(l.project.ID, 10))
		if err := os.MkdirAll(cache, 0o700); err != nil {
			l.m.log.Warn("making the sandbox's cache folder", "err", err)
			cache = ""
		}
	}
	var hidden, sockets []string
	if o.Hidden != nil {
		hidden = o.Hidden()
	}
	if o.Sockets != nil {
		sockets = o.Sockets()
	}
	proxy := &netproxy.Proxy{Decide: l.decideHost, Private: l.privateHost, OnRefuse: l.refusedHost}
	policy := sandbox.Policy{Project: l.root.Dir(), Home: home, PilotHome: o.PilotHome, Hidden: hidden, Cache: cache, Proxy: proxy.ServeConn, AllowSockets: sockets}
	policy.Guarded = l.guarded()
	l.sandboxGit(&policy)
	if o.New != nil {
		p.sess = o.New(policy)
	} else {
		p.sess = sandbox.NewSession(policy)
	}
	return p.sess, nil
}

// closeSandbox ends the session's pod and every process in it; a later
// command gets none (the session is gone).
func (l *live) closeSandbox() {
	p := &l.pod
	p.mu.Lock()
	sess := p.sess
	p.sess, p.closed = nil, true
	p.mu.Unlock()
	l.endPod(sess)
}

// idleSandbox ends the session's pod at the end of a turn when nothing
// runs in it (no command, no background job, which keep it): what a
// command left behind in it ends, and so does the empty read-only .git
// it holds in a folder with no repository (sandbox.GitPaths), which would
// otherwise stay in the user's folder until the session is closed (a
// rewind would not give the folder back as it was). The next command
// makes a new pod, with the folder's git read again; the hosts the user
// let commands reach stay for the session.
func (l *live) idleSandbox() {
	if len(l.jobs.running()) > 0 {
		return
	}
	p := &l.pod
	p.mu.Lock()
	sess := p.sess
	if sess == nil || p.closed || p.run != nil {
		p.mu.Unlock()
		return
	}
	p.sess = nil
	p.mu.Unlock()
	l.endPod(sess)
}

// endPod closes a pod of the session's (nil: none).
func (l *live) endPod(sess *sandbox.Session) {
	if sess == nil {
		return
	}
	closeFn := l.m.opt.Sandbox.Close
	if closeFn == nil {
		closeFn = (*sandbox.Session).Close
	}
	if err := closeFn(sess); err != nil {
		l.m.log.Warn("closing the session's sandbox", "session", l.id, "err", err)
	}
}

// Release ends the session's background jobs and its sandbox (its pod and
// every process in it), for a session deleted or closed, and forgets it;
// the turn, if one runs, is cancelled.
func (m *Manager) Release(sessionID int64) {
	m.Cancel(sessionID)
	m.mu.Lock()
	l := m.lives[sessionID]
	m.mu.Unlock()
	if l != nil {
		l.closeJobs(context.Background())
		l.closeSandbox()
	}
	m.mu.Lock()
	if m.lives[sessionID] == l {
		delete(m.lives, sessionID) // a later session of the same id starts afresh
	}
	m.mu.Unlock()
}

// startRun registers the command r as the one running in the pod, so its
// connections are asked about on its card.
func (t *turn) startRun(ctx context.Context, r *toolRun, command string) *sandboxRun {
	s := &sandboxRun{t: t, r: r, command: command}
	s.ctx, s.cancel = context.WithCancel(ctx)
	t.l.pod.mu.Lock()
	t.l.pod.run = s
	t.l.pod.mu.Unlock()
	return s
}

// end unregisters the command once it has finished, ends the questions
// its connections still wait on, and returns what was blocked.
func (s *sandboxRun) end() []string {
	p := &s.t.l.pod
	p.mu.Lock()
	if p.run == s {
		p.run = nil
	}
	p.mu.Unlock()
	s.cancel()
	s.asking.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.block
}

// current returns the running command with a question counted, or nil.
func (l *live) current() *sandboxRun {
	l.pod.mu.Lock()
	defer l.pod.mu.Unlock()
	s := l.pod.run
	if s != nil {
		s.asking.Add(1)
	}
	return s
}

// decideHost is the proxy's Decide: the gate judges a connection by its
// host under the session's rules and mode, asking the user on the
// running command's card where it says so. An error refuses it; its text
// is the sentence the client and the model are told.
func (l *live) decideHost(_ context.Context, host string, port int) error {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	s := l.current()
	if s == nil {
		return fmt.Errorf("The sandbox refused the connection to %s: no command of this session is running to ask the user about it (a background job's connections are refused once the call that started it has returned; reach the host from a command run in the foreground).", hostPort(host, port))
	}
	defer s.asking.Done()
	return s.t.network(s, host, port)
}

// refusedHost is the proxy's OnRefuse: every refusal (a private address
// no rule names, as well as Decide's) is told with the running command's
// result and shown on its card.
func (l *live) refusedHost(_ string, _ int, why string) {
	if s := l.current(); s != nil {
		s.blocked(why)
		s.asking.Done()
	}
}

// privateHost is the proxy's Private: a private, loopback or link-local
// address, or one of the machine's own, opens only for a rule naming the
// host exactly.
func (l *live) privateHost(host string) bool {
	s := l.current()
	if s == nil {
		return false
	}
	defer s.asking.Done()
	return s.t.judge(s.ctx, gate.Call{Tool: gate.NetworkTool, Host: strings.ToLower(host)}).Private
}

// network decides one connection of the running command s.
func (t *turn) network(s *sandboxRun, host string, port int) error {
	l := t.l
	t.own.ask.Lock() // one question at a time: a second connection to the host finds the first one's yes
	defer t.own.ask.Unlock()
	l.pod.mu.Lock()
	yes := l.pod.hosts[host]
	l.pod.mu.Unlock()
	d := t.judge(s.ctx, gate.Call{Tool: gate.NetworkTool, Host: host, HostApproved: yes})
	switch d.Verdict {
	case gate.Refuse:
		s.blocked(d.Reason)
		return errors.New(d.Reason)
	case gate.Run:
		return nil
	}
	r := s.r
	before := r.out
	_, ok := t.asked(s.ctx, r, d, wire.Approval{Command: s.command, Host: host, Port: port}, "")
	feedback := strings.TrimSpace(r.out.feedback)
	r.out = before
	t.running(context.WithoutCancel(s.ctx), r)
	if !ok {
		why := fmt.Sprintf("The sandbox refused the connection to %s: the user did not allow that host.", hostPort(host, port))
		if feedback != "" {
			why = fmt.Sprintf("The sandbox refused the connection to %s: it was not allowed (%s).", hostPort(host, port), feedback)
		}
		if s.ctx.Err() != nil {
			why = fmt.Sprintf("The sandbox refused the connection to %s: the command ended before the user answered.", hostPort(host, port))
		}
		s.blocked(why)
		return errors.New(why)
	}
	l.pod.mu.Lock()
	if l.pod.hosts == nil {
		l.pod.hosts = map[string]bool{}
	}
	l.pod.hosts[host] = true
	l.pod.mu.Unlock()
	return nil
}

func hostPort(host string, port int) string {
	if port == 0 {
		return host
	}
	return host + ":" + strconv.Itoa(port)
}

// saveSandbox keeps how the command ran with its call and shows it on the
// card.
func (t *turn) saveSandbox(ctx context.Context, r *toolRun, info *wire.SandboxInfo) {
	b, err := json.Marshal(info)
	if err == nil {
		err = t.l.m.st.ToolCalls.SetSandbox(context.WithoutCancel(ctx), r.rec.ID, string(b))
	}
	if err != nil {
		t.l.m.log.Warn("saving the command's sandbox", "err", err)
	}
	r.view.Sandbox = info
	t.l.emitTool(r.view)
}
