package procgroup

import "syscall"

// attr: a process group of its own, and SIGKILL when Pilot dies if asked
// (Pdeathsig is sent when the thread that started the process ends, so it
// is only for commands that Pilot's main work keeps alive: see New's
// callers).
func (g *Group) attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if g.dies {
		a.Pdeathsig = syscall.SIGKILL
	}
	return a
}
