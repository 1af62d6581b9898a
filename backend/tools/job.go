package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"pilot/backend/sandbox"
)

// StopGrace is how long a stopped job has between SIGTERM and SIGKILL.
const StopGrace = 3 * time.Second

// Job is a command started in the background (run_bash background:
// true): bash -c in a process group of its own, in the session's pod or
// on the host, that lives on after the call that started it returned.
// When its shell exits, what is left of its group is killed, as after
// every command; Stop ends the whole group.
type Job struct {
	proc process
	done chan struct{}
	code int
	err  error
	stop sync.Once
}

// StartJob starts an approved background command. Every chunk of its
// output (stdout and stderr interleaved) is passed to out, from one
// goroutine, until the job ends; ctx bounds only the start.
func (r *Registry) StartJob(ctx context.Context, p *Proposal, sandbox *sandbox.Session, out func([]byte)) (*Job, error) {
	if p == nil || p.Command == nil || !p.Command.Background {
		return nil, errors.New("tools: StartJob: not a background command")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run_bash: %w", err)
	}
	proc, err := startCommand(ctx, *p.Command, r.deps.Env, pw, sandbox)
	pw.Close() // the job's processes hold the only write ends now
	if err != nil {
		pr.Close()
		return nil, err
	}
	j := &Job{proc: proc, done: make(chan struct{})}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		buf := make([]byte, 32<<10)
		for {
			n, err := pr.Read(buf)
			if n > 0 {
				out(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		j.code, j.err = proc.wait()
		proc.kill() // what the shell left running in its group
		select {
		case <-copied:
		case <-time.After(pipeGrace):
			pr.Close() // a process that left the group (setsid) still holds the pipe
			<-copied
		}
		pr.Close()
		close(j.done)
	}()
	return j, nil
}

// Done is closed once the job has ended and all its output was passed on.
func (j *Job) Done() <-chan struct{} { return j.done }

// Exit is the job's exit code as a shell gives it (128 + the signal that
// ended it), and an error when its sandbox's pod ended under it; valid
// once Done is closed.
func (j *Job) Exit() (int, error) {
	<-j.done
	return j.code, j.err
}

// Stop ends the job's process group: SIGTERM, then SIGKILL when it has
// not ended within grace (killed reports that it took SIGKILL); it
// returns once the job has ended or ctx is done.
func (j *Job) Stop(ctx context.Context, grace time.Duration) (killed bool) {
	j.stop.Do(func() {
		select {
		case <-j.done:
			return
		default:
		}
		j.proc.signal(syscall.SIGTERM)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-j.done:
			return
		case <-t.C:
		case <-ctx.Done():
		}
		j.proc.kill()
		killed = true
	})
	select {
	case <-j.done:
	case <-ctx.Done():
	}
	return killed
}
