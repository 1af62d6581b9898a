package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
)

// sandboxExec is the only sandbox-exec used: a program of that name
// earlier on the PATH could run commands unconfined (Codex does the same).
const sandboxExec = "/usr/bin/sandbox-exec"

// RunPodIfAsked does nothing on macOS: there is no pod program, each
// command is confined by sandbox-exec on its own.
func RunPodIfAsked() {}

// LandlockABI is 0: Landlock is Linux's.
func LandlockABI() int { return 0 }

// ProbeNow checks that sandbox-exec is there and confines a trivial
// command with a profile of this package's kind.
func ProbeNow() Status {
	st := Status{UserNS: "macOS has no user namespaces: Seatbelt (sandbox-exec) confines each command instead."}
	if _, err := os.Stat(sandboxExec); err != nil {
		st.Why = "macOS's sandbox-exec (" + sandboxExec + ") is missing, so commands cannot be sandboxed; it ships with every macOS since 10.5: check the system's integrity (csrutil status), then restart Pilot."
		return st
	}
	sp := seatbeltSpec{writable: []string{os.TempDir()}}
	out, err := exec.Command(sandboxExec, sp.profile().Args("/usr/bin/true")...).CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		st.Why = fmt.Sprintf("sandbox-exec cannot confine a command here (%s): run `sandbox-exec -p '(version 1)(allow default)' /usr/bin/true` in a terminal to see why, then restart Pilot.", msg)
		return st
	}
	st.Ready = true
	return st
}

// Session is one session's sandbox: its private temporary folder and the
// proxy's loopback port, made at the first command; every command runs
// under a profile made from the Policy when it starts (seatbelt.go).
type Session struct {
	p Policy

	mu     sync.Mutex
	closed bool
	run    *seatbeltRun
	groups map[int]bool // the process groups of commands started
}

// NewSession prepares a session; nothing starts before the first Start.
func NewSession(p Policy) *Session { return &Session{p: p, groups: map[int]bool{}} }

// Policy is what the session was given.
func (s *Session) Policy() Policy { return s.p }

// PodPID is 0: no process outlives a command on macOS.
func (s *Session) PodPID() int { return 0 }

// Process is a command running under sandbox-exec.
type Process struct {
	pid  int
	done chan struct{}
	code int
	err  error
}

// Start starts c under a profile made from the session's Policy.
func (s *Session) Start(ctx context.Context, c Cmd) (*Process, error) {
	if c.Output == nil {
		return nil, errors.New("sandbox: a command needs an output file")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the sandbox of this session was closed")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.run == nil {
		r, err := startRun(s.p)
		if err != nil {
			return nil, err
		}
		s.run = r
	}
	prof := seatbeltSpecFor(s.p, s.run.tmp, userTempDir(), s.run.port).profile()
	env := commandEnv(c.Env, s.run.tmp, s.p.Cache, s.run.port)
	cmd := exec.Command(sandboxExec, prof.Args(lookPath("bash", env), "-c", c.Command)...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.Dir, env, c.Output, c.Output
	// A session of its own: no controlling terminal (the pod's
	// --new-session), and a process group to kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("the sandbox could not start the command: %w", err)
	}
	p := &Process{pid: cmd.Process.Pid, done: make(chan struct{})}
	s.groups[p.pid] = true
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				p.code = 128 + int(ws.Signal())
			} else {
				p.code = ee.ExitCode()
			}
		default:
			p.code, p.err = -1, err
		}
		close(p.done)
	}()
	return p, nil
}

// Wait waits for the command and returns its exit code as a shell gives
// it (128 + the signal when killed).
func (p *Process) Wait() (int, error) {
	<-p.done
	return p.code, p.err
}

// Kill kills the command's process group (every process it started that
// did not leave it), also after the command's exit.
func (p *Process) Kill() { p.Signal(syscall.SIGKILL) }

// Signal sends sig to the command's process group.
func (p *Process) Signal(sig syscall.Signal) { _ = syscall.Kill(-p.pid, sig) }

// Close kills what is left of every command's process group and removes
// the private temporary folder.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for g := range s.groups {
		_ = syscall.Kill(-g, syscall.SIGKILL)
	}
	s.groups = map[int]bool{}
	if s.run != nil {
		s.run.close()
		s.run = nil
	}
	return nil
}
