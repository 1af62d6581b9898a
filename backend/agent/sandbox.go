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

	"pilot/backend/confine"
	"pilot/backend/gate"
	"pilot/backend/netproxy"
	"pilot/backend/wire"
)

// Sandbox is how run_bash commands are confined (Options.Sandbox). The
// zero value is the machine's: confine.Probe and confine.NewSession.
type Sandbox struct {
	// Probe says whether the sandbox can start here (nil: confine.Probe).
	Probe func() confine.Status
	// New prepares a session's pod (nil: confine.NewSession); Close ends
	// it (nil: its Close).
	New   func(confine.Policy) *confine.Session
	Close func(*confine.Session) error
	// Hidden are the extra paths to hide (Settings), read when a
	// session's pod is made; nil: none.
	Hidden func() []string
	// PilotHome is hidden from commands; Home is the user's home ("":
	// os.UserHomeDir), CacheDir the folder of the per-project caches
	// kept between sessions ("": os.UserCacheDir()/pilot/sandbox-cache).
	PilotHome, Home, CacheDir string
}

func (s Sandbox) probe() confine.Status {
	if s.Probe != nil {
		return s.Probe()
	}
	return confine.Probe()
}

// pod is a session's sandbox: made at its first sandboxed command, ended
// when the session is released or the Manager closes.
type pod struct {
	mu     sync.Mutex
	sess   *confine.Session
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
func (l *live) sandbox() (*confine.Session, error) {
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
	cache := o.CacheDir
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "pilot", "sandbox-cache")
		}
	}
	if cache != "" {
		cache = filepath.Join(cache, strconv.FormatInt(l.project.ID, 10))
		if err := os.MkdirAll(cache, 0o700); err != nil {
			l.m.log.Warn("making the sandbox's cache folder", "err", err)
			cache = ""
		}
	}
	var hidden []string
	if o.Hidden != nil {
		hidden = o.Hidden()
	}
	proxy := &netproxy.Proxy{Decide: l.decideHost, Private: l.privateHost, OnRefuse: l.refusedHost}
	policy := confine.Policy{Project: l.root.Dir(), Home: home, PilotHome: o.PilotHome, Hidden: hidden, Cache: cache, Proxy: proxy.ServeConn}
	if o.New != nil {
		p.sess = o.New(policy)
	} else {
		p.sess = confine.NewSession(policy)
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
	if sess == nil {
		return
	}
	closeFn := l.m.opt.Sandbox.Close
	if closeFn == nil {
		closeFn = (*confine.Session).Close
	}
	if err := closeFn(sess); err != nil {
		l.m.log.Warn("closing the session's sandbox", "session", l.id, "err", err)
	}
}

// Release ends the session's sandbox (its pod and every process in it),
// for a session deleted or closed; the turn, if one runs, is cancelled.
func (m *Manager) Release(sessionID int64) {
	m.Cancel(sessionID)
	m.mu.Lock()
	l := m.lives[sessionID]
	m.mu.Unlock()
	if l != nil {
		l.closeSandbox()
	}
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
		return fmt.Errorf("The sandbox refused the connection to %s: no command of this session is running to ask for it (a server or background process is not kept between commands).", hostPort(host, port))
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
// address opens only for a rule naming the host exactly.
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
		err = t.l.m.st.SetToolSandbox(context.WithoutCancel(ctx), r.rec.ID, string(b))
	}
	if err != nil {
		t.l.m.log.Warn("saving the command's sandbox", "err", err)
	}
	r.view.Sandbox = info
	t.l.emitTool(r.view)
}
