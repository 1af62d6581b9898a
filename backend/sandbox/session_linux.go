//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"pilot/backend/hostexec"
)

// Session is one session's pod.
type Session struct {
	p Policy

	mu     sync.Mutex
	pod    *pod1
	closed bool
	nextID uint64
}

// NewSession prepares a pod; nothing starts before the first Start.
func NewSession(p Policy) *Session { return &Session{p: p} }

// Policy is what the session's pod was given.
func (s *Session) Policy() Policy { return s.p }

// PodPID is the host pid of the running pod's bwrap (0: none running).
func (s *Session) PodPID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pod == nil || s.pod.isDead() {
		return 0
	}
	return s.pod.cmd.Process.Pid
}

// Process is a command running in the pod.
type Process struct {
	id      uint64
	pod     *pod1
	started chan error // one value: nil, or why it did not start
	done    chan struct{}
	code    int
	err     error
}

// pod1 is one running pod, seen from Pilot.
type pod1 struct {
	cmd    *exec.Cmd
	conn   *net.UnixConn
	dir    string // the host folder of its private files
	ln     net.Listener
	stop   context.CancelFunc // ends the proxy's connections
	stderr *tailBuffer
	exited chan struct{} // bwrap was reaped
	reads  bool          // read runs (and closes dead at the end)
	// placeholder is the empty .git it holds (holdPlaceholder), released
	// once bwrap is gone.
	placeholder *placeholderHold

	mu    sync.Mutex
	procs map[uint64]*Process
	dead  chan struct{} // the control socket ended
	why   error
	sendM sync.Mutex
}

// Start starts c in the pod, starting the pod first if needed (again, if
// the pod it had ended).
func (s *Session) Start(ctx context.Context, c Cmd) (*Process, error) {
	if c.Output == nil {
		return nil, errors.New("sandbox: a command needs an output file")
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the sandbox of this session was closed")
	}
	if s.pod != nil && s.pod.isDead() {
		s.pod.close()
		s.pod = nil
	}
	if s.pod == nil {
		pd, err := startPod(ctx, s.p)
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
		s.pod = pd
	}
	pd := s.pod
	s.nextID++
	pr := &Process{id: s.nextID, pod: pd, started: make(chan error, 1), done: make(chan struct{})}
	s.mu.Unlock()

	pd.mu.Lock()
	if pd.isDead() {
		pd.mu.Unlock()
		return nil, pd.why
	}
	pd.procs[pr.id] = pr
	pd.mu.Unlock()
	err := pd.send(message{Op: "start", ID: pr.id, Argv: []string{"bash", "-c", c.Command}, Dir: c.Dir, Env: c.Env}, c.Output)
	if err == nil {
		select {
		case err = <-pr.started:
		case <-pd.dead:
			err = pd.why
		case <-ctx.Done():
			pr.Kill() // it may start after all
			err = ctx.Err()
		}
	}
	if err != nil {
		pd.forget(pr.id)
		return nil, err
	}
	return pr, nil
}

// Wait waits for the command and returns its exit code as a shell gives
// it (128 + the signal when killed).
func (p *Process) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// Kill kills the command's process group (every process it started that
// did not leave it); after the command's exit it kills what is left of the
// group.
func (p *Process) Kill() {
	_ = p.pod.send(message{Op: "kill", ID: p.id}, nil)
}

// Signal sends sig to the command's process group (a background job is
// asked to end with SIGTERM before it is killed).
func (p *Process) Signal(sig syscall.Signal) {
	_ = p.pod.send(message{Op: "kill", ID: p.id, Sig: int(sig)}, nil)
}

// Close stops the pod and every process in it and removes its temporary folder.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.pod != nil {
		s.pod.close()
		s.pod = nil
	}
	return nil
}

// startPod starts bwrap with the pod program and waits until it is up.
func startPod(ctx context.Context, p Policy) (*pod1, error) {
	if err := checkProject(p); err != nil {
		return nil, err
	}
	bwrap, err := hostexec.Find("bwrap", os.Getenv("PATH"), p.Project)
	var skip *hostexec.SkippedError
	switch {
	case errors.As(err, &skip):
		return nil, fmt.Errorf("the sandbox cannot start: %w", err)
	case err != nil:
		return nil, errors.New("the sandbox cannot start: bubblewrap (bwrap) is not installed; install the package bubblewrap")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: where Pilot's executable is: %w", err)
	}
	dir, err := os.MkdirTemp("", "pilot-pod-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	pd := &pod1{dir: dir, stderr: &tailBuffer{}, exited: make(chan struct{}), procs: map[uint64]*Process{}, dead: make(chan struct{})}
	ok := false
	defer func() {
		if !ok {
			pd.close()
		}
	}()
	l := layout{policy: p, exe: exe, tmp: filepath.Join(dir, "tmp"), hideFil: filepath.Join(dir, "hidden"),
		noUserNS: versionAtLeast(Probe().BwrapVersion, 0, 8)}
	if err := os.WriteFile(l.hideFil, nil, 0); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if pd.placeholder, err = prepareFolders(p, l.tmp); err != nil {
		return nil, err
	}
	cfg := podConfig{Project: p.Project, Tmp: l.tmp, Cache: p.Cache, Landlock: !p.NoLandlock && LandlockABI() > 0}
	var proxyCtx context.Context
	proxyCtx, pd.stop = context.WithCancel(context.Background())
	if p.Proxy != nil {
		l.netDir = filepath.Join(dir, "net")
		if err := os.Mkdir(l.netDir, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		if pd.ln, err = net.Listen("unix", filepath.Join(l.netDir, "proxy.sock")); err != nil {
			return nil, fmt.Errorf("sandbox: the proxy's socket: %w", err)
		}
		cfg.Proxy = podNetDir + "/proxy.sock"
		go serveProxy(proxyCtx, pd.ln, p.Proxy)
	}
	cj, _ := json.Marshal(cfg)
	host, podEnd, err := socketpair()
	if err != nil {
		return nil, err
	}
	pd.cmd = exec.Command(bwrap, l.args(string(cj))...)
	pd.cmd.ExtraFiles = []*os.File{podEnd}
	if filter := seccompFilter(); filter != nil {
		f, err := seccompFile(dir, filter)
		if err != nil {
			podEnd.Close()
			host.Close()
			return nil, err
		}
		defer f.Close()
		pd.cmd.ExtraFiles = append(pd.cmd.ExtraFiles, f) // fd 4
		pd.cmd.Args = append(pd.cmd.Args[:1], append([]string{"--seccomp", "4"}, pd.cmd.Args[1:]...)...)
	}
	pd.cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	pd.cmd.Stderr = pd.stderr
	// bwrap's --die-with-parent watches the thread that started it, not
	// the process: start it from a thread kept for the pod's life, so that
	// the runtime ending some other thread never kills the pod.
	started := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine, after bwrap
		err := pd.cmd.Start()
		started <- err
		if err == nil {
			_ = pd.cmd.Wait()
			close(pd.exited)
		}
	}()
	err = <-started
	podEnd.Close()
	if err != nil {
		host.Close()
		pd.cmd = nil
		return nil, fmt.Errorf("the sandbox cannot start: %w", err)
	}
	if pd.conn, err = fileConn(host); err != nil {
		return nil, err
	}
	ready := make(chan message, 1)
	pd.reads = true
	go pd.read(ready)
	select {
	case <-ready:
	case <-pd.dead:
		if st := ProbeNow(); !st.Ready {
			return nil, fmt.Errorf("the sandbox cannot start: %s", st.Why)
		}
		return nil, fmt.Errorf("the sandbox cannot start: %w", pd.why)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ok = true
	return pd, nil
}

// read dispatches the pod's messages until the control socket ends.
func (pd *pod1) read(ready chan<- message) {
	buf, oob := make([]byte, 64<<10), make([]byte, 64)
	for {
		m, fd, err := receive(pd.conn, buf, oob)
		if fd >= 0 {
			_ = os.NewFile(uintptr(fd), "").Close() // the pod sends none
		}
		if err != nil {
			break
		}
		switch m.Op {
		case "ready":
			ready <- m
		case "started", "error":
			pd.mu.Lock()
			pr := pd.procs[m.ID]
			pd.mu.Unlock()
			if pr != nil {
				if m.Op == "error" {
					pr.started <- fmt.Errorf("the sandbox could not start the command: %s", m.Err)
				} else {
					pr.started <- nil
				}
			}
		case "exit":
			pd.mu.Lock()
			pr := pd.procs[m.ID]
			delete(pd.procs, m.ID)
			pd.mu.Unlock()
			if pr != nil {
				pr.code = m.Code
				close(pr.done)
			}
		}
	}
	// The pod ended (or was closed): fail whatever still waits on it.
	<-pd.exited
	pd.mu.Lock()
	pd.why = pd.endedWhy()
	close(pd.dead)
	for id, pr := range pd.procs {
		delete(pd.procs, id)
		pr.code, pr.err = -1, pd.why
		close(pr.done)
	}
	pd.mu.Unlock()
}

// endedWhy says why the pod is gone.
func (pd *pod1) endedWhy() error {
	msg := strings.TrimSpace(pd.stderr.String())
	state := pd.cmd.ProcessState.String()
	if msg == "" {
		return fmt.Errorf("the sandbox's pod ended (%s); every process in it was killed, and the next command starts a new one", state)
	}
	return fmt.Errorf("the sandbox's pod ended (%s): %s", state, msg)
}

func (pd *pod1) isDead() bool {
	select {
	case <-pd.dead:
		return true
	default:
		return false
	}
}

// forget drops a process that did not start.
func (pd *pod1) forget(id uint64) {
	pd.mu.Lock()
	delete(pd.procs, id)
	pd.mu.Unlock()
}

func (pd *pod1) send(m message, f *os.File) error {
	if pd.isDead() {
		return pd.why
	}
	pd.sendM.Lock()
	defer pd.sendM.Unlock()
	if err := send(pd.conn, m, f); err != nil {
		return fmt.Errorf("the sandbox's pod cannot be reached: %w", err)
	}
	return nil
}

// close ends the pod: closing the control socket makes it kill every
// process of its namespace and exit; bwrap is killed if it lingers.
func (pd *pod1) close() {
	if pd.conn != nil {
		_ = pd.conn.Close()
	}
	if pd.cmd != nil {
		select {
		case <-pd.exited:
		case <-time.After(3 * time.Second):
			_ = pd.cmd.Process.Kill()
			<-pd.exited
		}
	}
	if pd.reads {
		<-pd.dead
	}
	if pd.ln != nil {
		_ = pd.ln.Close()
	}
	if pd.stop != nil {
		pd.stop()
	}
	pd.placeholder.release()
	_ = os.RemoveAll(pd.dir)
}

// tailBuffer keeps the last 4 KiB written to it (bwrap's error output).
type tailBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if over := t.b.Len() - 4096; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}

// seccompFile writes the filter to a file in the pod's folder and opens it
// for bwrap to read.
func seccompFile(dir string, filter []byte) (*os.File, error) {
	p := filepath.Join(dir, "seccomp.bpf")
	if err := os.WriteFile(p, filter, 0o600); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return os.Open(p)
}
