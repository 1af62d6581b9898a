// Package procgroup starts a command in a group of its own, so that
// ending the group ends everything the command started: a process group
// on Unix (kill(-pid)), a Job Object on Windows (TerminateJobObject), where
// a process started by one stays in it.
package procgroup

import (
	"os/exec"
	"syscall"
)

// New prepares cmd to start in a group of its own (it sets
// cmd.SysProcAttr); dieWithPilot also kills the group when Pilot dies,
// however it dies, where the system can (Linux, Windows).
func New(cmd *exec.Cmd, dieWithPilot bool) *Group {
	g := &Group{cmd: cmd, dies: dieWithPilot}
	cmd.SysProcAttr = g.attr()
	return g
}

// Start starts the command in its group.
func (g *Group) Start() error {
	if err := g.cmd.Start(); err != nil {
		return err
	}
	return g.join()
}

// Kill ends every process of the group at once.
func (g *Group) Kill() { g.Signal(syscall.SIGKILL) }

// Wait waits for the command (not the rest of its group) to exit.
func (g *Group) Wait() error { return g.cmd.Wait() }
