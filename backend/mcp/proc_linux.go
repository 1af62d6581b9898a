package mcp

import "syscall"

// procAttr: a process group of its own, and SIGKILL when Pilot dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
