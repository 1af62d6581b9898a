//go:build !linux

package mcp

import "syscall"

// procAttr: a process group of its own.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
