package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"pilot/backend/hostexec"
	"pilot/backend/procgroup"
)

// proc is a stdio server's process. Pilot starts and reaps it itself
// (rather than through the SDK's CommandTransport) so that the whole
// process group is killed: servers started through npx or a shell leave
// their real server as a grandchild.
type proc struct {
	group  *procgroup.Group
	stdin  io.WriteCloser
	stdout io.ReadCloser
	exited chan struct{} // closed once Wait has returned
	err    error         // Wait's error, set before exited is closed
	once   sync.Once
}

// startProc starts the server with its own process group. A bare command
// is found on an absolute entry of Pilot's PATH outside the projects
// (hostexec), and what the server starts in turn likewise (its PATH is
// cleaned); a command with a slash is taken as configured.
func startProc(s Server, env []string, dir string, stderr io.Writer) (*proc, error) {
	path := s.Command
	if !strings.Contains(path, "/") {
		p, err := hostexec.Find(path, os.Getenv("PATH"), dir)
		if err != nil {
			return nil, err
		}
		path = p
	}
	cmd := exec.Command(path, s.Args...)
	cmd.Env, cmd.Dir, cmd.Stderr = hostexec.Env(env, dir), dir, stderr
	g := procgroup.New(cmd, true)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := g.Start(); err != nil {
		return nil, err
	}
	p := &proc{group: g, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	go func() {
		p.err = g.Wait()
		// A grandchild holding the group may outlive the leader: end it.
		g.Kill()
		close(p.exited)
	}()
	return p, nil
}

// Reader and Writer for the SDK's IOTransport. Closing them is left to
// stop: the SDK closes the connection when a session ends.
func (p *proc) reader() io.ReadCloser  { return p.stdout }
func (p *proc) writer() io.WriteCloser { return p.stdin }

// exitErr describes how the process ended, once it has.
func (p *proc) exitErr() error {
	select {
	case <-p.exited:
	default:
		return nil
	}
	if p.err == nil {
		return errors.New("the server exited")
	}
	return fmt.Errorf("the server exited (%v)", p.err)
}

// stop ends the process as the MCP spec asks (close its stdin, wait,
// SIGTERM, SIGKILL), then kills what is left of its group, and returns
// once it has been reaped.
func (p *proc) stop(grace time.Duration) {
	p.once.Do(func() {
		_ = p.stdin.Close()
		wait := func(d time.Duration) bool {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-p.exited:
				return true
			case <-t.C:
				return false
			}
		}
		if wait(grace) {
			return
		}
		p.group.Signal(syscall.SIGTERM)
		if wait(grace) {
			return
		}
		p.group.Kill()
		<-p.exited
	})
	<-p.exited
}

// waitCtx waits for the process to exit or ctx to end.
func (p *proc) waitCtx(ctx context.Context) {
	select {
	case <-p.exited:
	case <-ctx.Done():
	}
}
