package sandbox

import (
	"context"
	"errors"
	"syscall"
)

// NoSandbox says why commands run unconfined on Windows, and what Pilot
// does instead: the window's Settings › Sandbox, `pilot doctor` and a
// command's card show it.
const NoSandbox = "Pilot has no OS sandbox on Windows yet (the Linux one is bubblewrap and Landlock): commands run as you, with your files and network, so every command is asked about, in edits mode too."

// errNoSandbox is Start's answer: the caller runs the command on the host
// once it was approved.
var errNoSandbox = errors.New(NoSandbox)

// RunPodIfAsked returns at once: no pod runs on Windows.
func RunPodIfAsked() {}

// ProbeNow is Probe: nothing on Windows changes while Pilot runs.
func ProbeNow() Status {
	return Status{Why: NoSandbox, UserNS: "Windows has no user namespaces."}
}

// LandlockABI is 0: Landlock is Linux's.
func LandlockABI() int { return 0 }

// Session is a session's pod; on Windows none ever starts.
type Session struct{ p Policy }

// NewSession keeps the policy for Explain.
func NewSession(p Policy) *Session { return &Session{p: p} }

// Policy is what the session's pod was given.
func (s *Session) Policy() Policy { return s.p }

// PodPID is 0: no pod runs.
func (s *Session) PodPID() int { return 0 }

// Process is never made on Windows.
type Process struct{}

// Start refuses: no sandbox on Windows.
func (s *Session) Start(context.Context, Cmd) (*Process, error) { return nil, errNoSandbox }

// Wait has nothing to wait for.
func (p *Process) Wait() (int, error) { return -1, errNoSandbox }

// Kill has nothing to kill.
func (p *Process) Kill() {}

// Signal has nothing to signal.
func (p *Process) Signal(syscall.Signal) {}

// Close has nothing to close.
func (s *Session) Close() error { return nil }
