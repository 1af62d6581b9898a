//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
)

// podMarker is the argument that makes Pilot's own executable act as a pod.
const podMarker = "__pilot_confine_pod__"

// RunPodIfAsked makes this process the pod when it was started as one (by
// a Session, through bwrap) and never returns then; otherwise it returns at
// once. main calls it first thing, and so does TestMain in every package
// whose tests start pods (the test binary is then the pod's program).
func RunPodIfAsked() {
	if len(os.Args) < 3 || os.Args[1] != podMarker {
		return
	}
	os.Exit(runPod(os.Args[2]))
}

// podConfig is what the pod is told on its command line.
type podConfig struct {
	Project  string `json:"project"`
	Landlock bool   `json:"landlock,omitempty"` // restrict the commands' writes with Landlock too
	Proxy    string `json:"proxy,omitempty"`    // the unix socket the bridge dials; "": no proxy
	Tmp      string `json:"tmp"`                // the private temporary folder (TMPDIR)
	Cache    string `json:"cache,omitempty"`    // XDG_CACHE_HOME; "": none
}

// pod is the program that runs inside bwrap as PID 1 of the pod's PID
// namespace: it starts the commands Pilot sends, reaps every process, and
// reports exits.
type pod struct {
	cfg    podConfig
	port   int
	conn   *net.UnixConn
	devnul int

	forks chan func() // run on the forking thread, the one Landlock restricts

	mu    sync.Mutex
	procs map[int]*podProc // by pid
	byID  map[uint64]*podProc
}

type podProc struct {
	id     uint64
	pid    int
	exited bool
}

func runPod(arg string) int {
	var cfg podConfig
	if err := json.Unmarshal([]byte(arg), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "pilot pod:", err)
		return 2
	}
	// Descriptors Pilot inherited from whatever started it pass through
	// bwrap: none may reach a command.
	const sysCloseRange, closeRangeCloexec = 436, 4
	_, _, _ = syscall.RawSyscall(sysCloseRange, 3, ^uintptr(0)>>32, closeRangeCloexec)
	// Not dumpable: a command (same user) can neither trace the pod nor
	// open its descriptors through /proc/1/fd.
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_DUMPABLE, 0, 0)
	// A session keyring of its own: the keys of Pilot's session (inherited
	// across exec) are not the commands'.
	const keyctlJoinSessionKeyring = 1
	_, _, _ = syscall.RawSyscall(syscall.SYS_KEYCTL, keyctlJoinSessionKeyring, 0, 0)
	// As PID 1 the pod is sent only the signals it handles: catch the
	// usual ones so that `kill 1` from a command does nothing (handled
	// signals are reset at exec, so commands start with the defaults).
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM)
	go func() {
		for range sigs {
		}
	}()
	conn, err := fileConn(os.NewFile(3, "pod-control"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "pilot pod: the control socket:", err)
		return 2
	}
	devnull, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pilot pod:", err)
		return 2
	}
	p := &pod{cfg: cfg, conn: conn, devnul: devnull, forks: make(chan func()), procs: map[int]*podProc{}, byID: map[uint64]*podProc{}}
	if err := p.startForker(); err != nil {
		fmt.Fprintln(os.Stderr, "pilot pod:", err)
		return 2
	}
	if cfg.Proxy != "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "pilot pod: the proxy bridge:", err)
			return 2
		}
		p.port = ln.Addr().(*net.TCPAddr).Port
		go bridge(ln, cfg.Proxy)
	}
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	go func() {
		for range chld {
			p.reap()
		}
	}()
	if err := send(conn, message{Op: "ready", Port: p.port}, nil); err != nil {
		return 2
	}
	buf, oob := make([]byte, maxMessage), make([]byte, syscall.CmsgSpace(4*4))
	for {
		m, fd, err := receive(conn, buf, oob)
		if err != nil {
			break // Pilot closed its end (or died): end everything
		}
		switch m.Op {
		case "start":
			p.start(m, fd)
		case "kill":
			p.kill(m.ID, syscall.Signal(m.Sig))
		default:
			if fd >= 0 {
				syscall.Close(fd)
			}
		}
	}
	_ = syscall.Kill(-1, syscall.SIGKILL) // every other process of the namespace
	return 0
}

// start forks the command in its own process group, stdin /dev/null,
// stdout and stderr the descriptor that came with the message.
func (p *pod) start(m message, fd int) {
	if fd < 0 {
		_ = send(p.conn, message{Op: "error", ID: m.ID, Err: "no output descriptor came with the command"}, nil)
		return
	}
	defer syscall.Close(fd)
	if len(m.Argv) == 0 {
		_ = send(p.conn, message{Op: "error", ID: m.ID, Err: "an empty command"}, nil)
		return
	}
	env := p.env(m.Env)
	prog := lookPath(m.Argv[0], env)
	p.mu.Lock()
	defer p.mu.Unlock()
	var pid int
	var err error
	done := make(chan struct{})
	p.forks <- func() {
		pid, err = syscall.ForkExec(prog, m.Argv, &syscall.ProcAttr{
			Dir:   m.Dir,
			Env:   env,
			Files: []uintptr{uintptr(p.devnul), uintptr(fd), uintptr(fd)},
			Sys:   &syscall.SysProcAttr{Setpgid: true},
		})
		close(done)
	}
	<-done
	if err != nil {
		_ = send(p.conn, message{Op: "error", ID: m.ID, Err: fmt.Sprintf("start %s in %s: %v", m.Argv[0], m.Dir, err)}, nil)
		return
	}
	pr := &podProc{id: m.ID, pid: pid}
	p.procs[pid], p.byID[m.ID] = pr, pr
	_ = send(p.conn, message{Op: "started", ID: m.ID}, nil)
}

// startForker starts the goroutine that forks every command, locked to
// its thread: Landlock and no_new_privs apply to a thread and what it
// forks, so that thread alone restricts itself (the pod's other threads
// need no file access beyond reading).
func (p *pod) startForker() error {
	ready := make(chan error)
	go func() {
		runtime.LockOSThread() // for good: the thread ends with the pod
		var err error
		if p.cfg.Landlock {
			writable := []string{p.cfg.Project, p.cfg.Tmp, "/dev/shm"}
			if p.cfg.Cache != "" {
				writable = append(writable, p.cfg.Cache)
			}
			err = landlockWrites(LandlockABI(), writable, []string{"/dev"})
		} else {
			_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0)
			if errno != 0 {
				err = errno
			}
		}
		ready <- err
		for f := range p.forks {
			f()
		}
	}()
	return <-ready
}

// kill sends sig (0: SIGKILL) to a command's process group; after its
// exit, a SIGKILL also forgets it.
func (p *pod) kill(id uint64, sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pr := p.byID[id]
	if pr == nil {
		return
	}
	if sig == 0 {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pr.pid, sig)
	if pr.exited && sig == syscall.SIGKILL {
		delete(p.byID, id)
	}
}

// reap collects every ended child (orphans too: the pod is PID 1) and
// reports the commands' exits.
func (p *pod) reap() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
		pr := p.procs[pid]
		if pr == nil {
			continue
		}
		delete(p.procs, pid)
		pr.exited = true
		code := ws.ExitStatus()
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		_ = send(p.conn, message{Op: "exit", ID: pr.id, Code: code}, nil)
	}
}

// env is the command's environment with the pod's variables set over it.
func (p *pod) env(base []string) []string { return commandEnv(base, p.cfg.Tmp, p.cfg.Cache, p.port) }

// bridge accepts the commands' TCP connections to the proxy address and
// joins each to Pilot's unix socket.
func bridge(ln net.Listener, sock string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			u, err := net.Dial("unix", sock)
			if err != nil {
				c.Close()
				return
			}
			join(c, u)
		}()
	}
}

// join copies both ways, passing each half-close on, and closes both.
func join(a, b net.Conn) {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(b, a)
		closeWrite(b)
		close(done)
	}()
	_, _ = io.Copy(a, b)
	closeWrite(a)
	<-done
	a.Close()
	b.Close()
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	} else {
		c.Close()
	}
}
