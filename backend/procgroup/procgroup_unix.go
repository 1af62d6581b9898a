//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// Group is a command with everything it starts: its process group.
type Group struct {
	cmd  *exec.Cmd
	dies bool // Pdeathsig SIGKILL on Linux
}

func (g *Group) join() error { return nil }

// Signal sends sig to every process of the group (0: none, the error
// ignored as for any signal).
func (g *Group) Signal(sig syscall.Signal) {
	if g.cmd.Process != nil {
		_ = syscall.Kill(-g.cmd.Process.Pid, sig)
	}
}
