//go:build unix && !linux

package procgroup

import "syscall"

// attr: a process group of its own (no Pdeathsig outside Linux).
func (g *Group) attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
