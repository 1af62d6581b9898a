package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/hostexec"
	"pilot/backend/procgroup"
	"pilot/backend/sandbox"
)

// Output kept from a command: its beginning and its end.
const (
	keepHead = 16 << 10
	keepTail = 16 << 10
)

// pipeGrace is how long output may still arrive after the group was killed.
const pipeGrace = 2 * time.Second

// cancelGrace replaces pipeGrace when the turn was cancelled: a process
// that left the group and holds the pipe must not hold the stop.
const cancelGrace = 100 * time.Millisecond

// runCommand runs an approved command: bash -c in its own process group,
// stdin from /dev/null, stdout and stderr through one pipe (so they
// interleave as written), in the environment childenv.Env allows. On timeout
// or cancellation, and after the command exits, the whole group is killed,
// so background children cannot outlive it.
//
// With pod set, the command runs in the session's pod (see package
// sandbox) with the same pipe, capture, timeout and group kill, and what
// the sandbox blocked, as its output shows, is said after the exit line and
// listed in Result.Blocked.
func runCommand(ctx context.Context, c Command, env []string, onOutput func(string), pod *sandbox.Session) (Result, error) {
	runCtx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()

	pr, pw, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("run_bash: %w", err)
	}
	defer pr.Close()
	proc, err := startCommand(ctx, c, env, pw, pod)
	pw.Close() // the children hold the only write ends now
	if err != nil {
		if ctx.Err() != nil { // stopped while the sandbox was starting
			return Result{Output: "[cancelled by the user before the command started]", IsError: true}, ctx.Err()
		}
		return Result{}, err
	}

	out := &capture{onOutput: onOutput}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, pr)
		close(copied)
	}()
	type exit struct {
		code int
		err  error
	}
	exited := make(chan exit, 1)
	go func() {
		code, err := proc.wait()
		exited <- exit{code, err}
	}()

	var ended exit
	select {
	case ended = <-exited:
	case <-runCtx.Done():
		proc.kill()
		ended = <-exited
	}
	proc.kill() // background jobs still holding the pipe
	grace := pipeGrace
	if ctx.Err() != nil {
		grace = cancelGrace // the user stopped the turn: do not keep them waiting
	}
	select {
	case <-copied:
	case <-time.After(grace):
		pr.Close() // a process that left the group (setsid) still holds it
		<-copied
	}

	var b strings.Builder
	b.WriteString(out.String())
	if b.Len() == 0 {
		b.WriteString("(no output)")
	}
	b.WriteString("\n\n")
	res := Result{}
	switch {
	case ctx.Err() != nil:
		b.WriteString("[cancelled by the user: the command and every process it started were killed]")
		res.IsError = true
		res.Output = b.String()
		return res, ctx.Err()
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(&b, "[timed out after %d s: the command and every process it started were killed. For a slow command give timeout_seconds (at most %d); for a server or watcher, start it with background: true and read it with job_output]", int(c.Timeout.Seconds()), int(maxTimeout.Seconds()))
		res.IsError = true
	case ended.err != nil: // the sandbox's pod ended under the command
		fmt.Fprintf(&b, "[the command did not finish: %v]", ended.err)
		res.IsError = true
	default:
		b.WriteString(explainExit(ended.code))
		res.IsError = ended.code != 0
	}
	if pod != nil {
		res.Blocked = sandbox.Explain(pod.Policy(), c.Command, out.String())
		for _, s := range res.Blocked {
			b.WriteString("\n[" + s + "]")
		}
	}
	res.Output = b.String()
	return res, nil
}

// process is a started command: bash on the host, or in the sandbox.
type process interface {
	wait() (int, error)        // the exit code as a shell gives it
	kill()                     // SIGKILL to the command's process group
	signal(sig syscall.Signal) // sig to the command's process group
}

// startCommand starts bash -c in its own process group with stdin from
// /dev/null and stdout and stderr into out: in the session's sandbox when
// there is one, with the user's rights otherwise.
func startCommand(ctx context.Context, c Command, env []string, out *os.File, pod *sandbox.Session) (process, error) {
	var own map[string]string
	if c.Background {
		own = map[string]string{"PYTHONUNBUFFERED": "1"} // a job's output is watched as it comes
	}
	childEnv := childenv.Env(env, c.Dir, own)
	if pod != nil {
		p, err := pod.Start(ctx, sandbox.Cmd{Command: c.Command, Dir: c.Dir, Env: childEnv, Output: out})
		if err != nil {
			return nil, fmt.Errorf("run_bash: %w", err)
		}
		return sandboxed{p}, nil
	}
	bash, err := hostexec.Bash(os.Getenv("PATH"), c.Dir)
	if err != nil {
		return nil, fmt.Errorf("run_bash: %w", err)
	}
	cmd := exec.Command(bash, "-c", c.Command)
	cmd.Dir = c.Dir
	cmd.Env = childEnv
	cmd.Stdout, cmd.Stderr = out, out
	g := procgroup.New(cmd, false)
	if err := g.Start(); err != nil {
		return nil, fmt.Errorf("run_bash: start bash: %w", err)
	}
	return hostProcess{cmd, g}, nil
}

type hostProcess struct {
	cmd   *exec.Cmd
	group *procgroup.Group
}

func (h hostProcess) wait() (int, error) {
	err := h.group.Wait()
	return exitCode(h.cmd.ProcessState, err), nil
}

func (h hostProcess) kill() { h.group.Kill() }

func (h hostProcess) signal(sig syscall.Signal) { h.group.Signal(sig) }

type sandboxed struct{ p *sandbox.Process }

func (s sandboxed) wait() (int, error) { return s.p.Wait() }
func (s sandboxed) kill()              { s.p.Kill() }

func (s sandboxed) signal(sig syscall.Signal) { s.p.Signal(sig) }

// exitCode is the shell's way of reporting a process end: the exit status,
// or 128 + the signal that killed it.
func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		if err != nil {
			return -1
		}
		return 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// explainExit turns an exit code into a line for the model.
func explainExit(code int) string {
	why := map[int]string{
		126: "the command was found but could not be executed (no execute permission, or not a program): chmod +x it, or run it through its interpreter (bash script.sh)",
		127: "command not found: check the spelling, whether the tool is installed (command -v NAME), or give its path (./script.sh)",
		130: "interrupted by SIGINT (Ctrl+C)",
		137: "killed by SIGKILL, most often because the system ran out of memory; make the command use less memory or work on less input",
		139: "segmentation fault (SIGSEGV) in the program",
		143: "terminated by SIGTERM",
	}[code]
	if why == "" {
		return fmt.Sprintf("[exit code %d]", code)
	}
	return fmt.Sprintf("[exit code %d: %s]", code, why)
}

// capture keeps the head and the tail of a stream, counts what falls in
// between, and passes every chunk on to onOutput.
type capture struct {
	onOutput func(string)
	head     []byte
	tail     []byte // the last bytes seen after head filled up
	dropped  int    // bytes that fell out of the tail
	lines    int    // newlines among them
}

func (c *capture) Write(p []byte) (int, error) {
	if c.onOutput != nil {
		c.onOutput(string(p))
	}
	n := len(p)
	if room := keepHead - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - keepTail; over > keepTail {
		c.dropped += over
		c.lines += strings.Count(string(c.tail[:over]), "\n")
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// String is the kept output with the elided middle marked.
func (c *capture) String() string {
	tail, dropped, lines := c.tail, c.dropped, c.lines
	if over := len(tail) - keepTail; over > 0 {
		dropped += over
		lines += strings.Count(string(tail[:over]), "\n")
		tail = tail[over:]
	}
	if dropped == 0 {
		return string(c.head) + string(tail)
	}
	return fmt.Sprintf("%s\n\n[... %s (%s) of output left out ...]\n\n%s", c.head, formatSize(int64(dropped)), plural(lines, "line"), tail)
}
