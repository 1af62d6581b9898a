//go:build linux

package lsp

import "syscall"

// procAttr puts a server in its own process group, killed with Pilot
// even when Pilot itself is killed.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
