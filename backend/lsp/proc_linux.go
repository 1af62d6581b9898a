//go:build linux

package lsp

import "syscall"

// procAttr puts a server in its own process group. No Pdeathsig: Linux
// sends it when the thread that started the process ends, not Pilot, and
// a goroutine's thread may end at any time (servers were killed at
// random). A server whose Pilot died sees its stdin closed and exits, as
// LSP asks.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
