// Package confine is the OS sandbox run_bash commands run in: one
// bubblewrap "pod" per session (its own user, mount, PID, IPC, UTS and
// network namespaces, all capabilities dropped), started at the session's
// first sandboxed command, in which every later command of the session is
// started. The project and a private temporary folder are writable, the
// rest of the file system read-only, the user's secrets hidden, and the
// only way out to the network is Pilot's filtering proxy (reached through
// a unix socket bound into the pod).
//
// SKELETON: the types and signatures below are the contract between the
// helpers building issue 23; the confine helper replaces the bodies.
package confine

import (
	"context"
	"errors"
	"net"
	"os"
)

// Status is what the machine offers for the sandbox.
type Status struct {
	Ready        bool   `json:"ready"`
	Why          string `json:"why,omitempty"` // not ready: why, and what to install or change, in a sentence
	Bwrap        string `json:"bwrap,omitempty"`
	BwrapVersion string `json:"bwrapVersion,omitempty"`
	UserNS       string `json:"userNamespaces"` // a sentence: available, or why not
	LandlockABI  int    `json:"landlockAbi"`    // 0: Landlock not available
}

// Probe reports whether commands can be sandboxed here (cached for the
// process; ProbeNow probes again).
func Probe() Status { return ProbeNow() }

// ProbeNow probes the machine now.
func ProbeNow() Status { return Status{Why: "not built yet"} }

// Policy is what one session's pod may do.
type Policy struct {
	Project   string   // absolute real path of the project: writable
	Home      string   // the user's home: secrets under it are hidden
	PilotHome string   // hidden
	Hidden    []string // more paths to hide (Settings); "~/" is Home
	Cache     string   // a writable folder kept between sessions (XDG_CACHE_HOME inside); "" none
	// Proxy serves one connection a command opened to the proxy address
	// set in its HTTP(S)_PROXY; nil: no network at all.
	Proxy func(ctx context.Context, c net.Conn)
}

// Cmd is one command to run in the pod.
type Cmd struct {
	Command string   // run with bash -c
	Dir     string   // working directory (inside the project)
	Env     []string // the allowlisted environment (childenv); the pod adds TMPDIR and the proxy variables
	Output  *os.File // stdout and stderr; stdin is /dev/null
}

// Session is one session's pod.
type Session struct{ p Policy }

// NewSession prepares a pod; nothing starts before the first Start.
func NewSession(p Policy) *Session { return &Session{p: p} }

// Process is a command running in the pod.
type Process struct{}

// Start starts c in the pod, starting the pod first if needed.
func (s *Session) Start(ctx context.Context, c Cmd) (*Process, error) {
	return nil, errors.New("not built yet")
}

// Wait waits for the command and returns its exit code as a shell gives
// it (128 + the signal when killed).
func (p *Process) Wait() (int, error) { return -1, errors.New("not built yet") }

// Kill kills the command's process group.
func (p *Process) Kill() {}

// Close stops the pod and every process in it and removes its temporary folder.
func (s *Session) Close() error { return nil }

// Explain returns a sentence for each thing the sandbox blocked that the
// command's output shows (a read-only file system, a hidden secret, a
// refused connection), naming the sandbox; none when nothing was blocked.
func Explain(p Policy, command, output string) []string { return nil }
