//go:build unix

package procgroup

import "syscall"

type sys struct{}

func (g *Group) join() error { return nil }

// Signal sends sig to every process of the group (0: none, the error
// ignored as for any signal).
func (g *Group) Signal(sig syscall.Signal) {
	if g.cmd.Process != nil {
		_ = syscall.Kill(-g.cmd.Process.Pid, sig)
	}
}
