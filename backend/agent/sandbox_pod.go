package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"pilot/backend/netproxy"
	"pilot/backend/sandbox"
)

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

// home is the user's home folder ("" when it cannot be found).
func (s Sandbox) home() string {
	if s.Home != "" {
		return s.Home
	}
	home, _ := os.UserHomeDir()
	return home
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
	l      *live // the session it is of
	mu     sync.Mutex
	sess   *sandbox.Session
	closed bool
	run    *sandboxRun // the command running in it, if any
	hosts  hostGrants  // hosts the user let commands reach in this session
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
func (p *pod) sandbox() (*sandbox.Session, error) {
	l := p.l
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("the session's sandbox was closed")
	}
	if p.sess != nil {
		return p.sess, nil
	}
	o := l.m.opt.Sandbox
	home := o.home()
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
	proxy := &netproxy.Proxy{Decide: p.decide, Private: p.private, OnRefuse: p.refused}
	policy := sandbox.Policy{Project: l.root.Dir(), Home: home, PilotHome: o.PilotHome, Hidden: hidden, Cache: cache, Proxy: proxy.ServeConn, AllowSockets: sockets}
	policy.Guarded = l.pod.guarded()
	l.pod.sandboxGit(&policy)
	if o.New != nil {
		p.sess = o.New(policy)
	} else {
		p.sess = sandbox.NewSession(policy)
	}
	return p.sess, nil
}

// closeSandbox ends the session's pod and every process in it; a later
// command gets none (the session is gone).
func (p *pod) closeSandbox() {
	l := p.l
	p.mu.Lock()
	sess := p.sess
	p.sess, p.closed = nil, true
	p.mu.Unlock()
	l.pod.endPod(sess)
}

// idleSandbox ends the session's pod at the end of a turn when nothing
// runs in it (no command, no background job, which keep it): what a
// command left behind in it ends, and so does the empty read-only .git
// it holds in a folder with no repository (sandbox.GitPaths), which would
// otherwise stay in the user's folder until the session is closed (a
// rewind would not give the folder back as it was). The next command
// makes a new pod, with the folder's git read again; the hosts the user
// let commands reach stay for the session.
func (p *pod) idleSandbox() {
	l := p.l
	if len(l.jobs.running()) > 0 {
		return
	}
	p.mu.Lock()
	sess := p.sess
	if sess == nil || p.closed || p.run != nil {
		p.mu.Unlock()
		return
	}
	p.sess = nil
	p.mu.Unlock()
	l.pod.endPod(sess)
}

// endPod closes a pod of the session's (nil: none).
func (p *pod) endPod(sess *sandbox.Session) {
	l := p.l
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
	l := m.loaded(sessionID)
	if l != nil {
		l.jobs.closeJobs(context.Background())
		l.pod.closeSandbox()
	}
	m.mu.Lock()
	if m.lives[sessionID] == l {
		delete(m.lives, sessionID) // a later session of the same id starts afresh
	}
	m.mu.Unlock()
}

// startRun registers the command r as the one running in the pod, so its
// connections are asked about on its card.
func (c *call) startRun(ctx context.Context, command string) *sandboxRun {
	t := c.t
	s := &sandboxRun{t: t, r: c.r, command: command}
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
func (p *pod) current() *sandboxRun {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.run
	if s != nil {
		s.asking.Add(1)
	}
	return s
}
