// Package sandbox is the OS sandbox run_bash commands run in: one
// bubblewrap "pod" per session (its own user, mount, PID, IPC, UTS and
// network namespaces, all capabilities dropped), started at the session's
// first sandboxed command, in which every later command of the session is
// started. The project and a private temporary folder are writable, the
// rest of the file system read-only, the user's secrets hidden, and the
// only way out to the network is Pilot's filtering proxy (reached through
// a unix socket bound into the pod).
//
// How it is built (bwrap's arguments, the pod protocol, what the kernel
// enforces) is in docs/ARCHITECTURE.md, "The sandbox of commands".
package sandbox

import (
	"context"
	"net"
	"os"
	"sync"
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
	// ReadOnly are paths bound read-only into the pod at their own path,
	// shown even where the pod would replace them (/tmp) and written by no
	// command. A path inside the project is bound over it (the deeper
	// mount wins). A path that does not exist, or lies in a hidden one
	// (other than one holding the project), is left out.
	ReadOnly []string
	// ReadOnlyNote is the sentence Explain gives when a command was
	// refused a write beneath ReadOnly; "" gives the general one.
	ReadOnlyNote string
	// Guarded are paths inside the project that grant or run things on
	// the host (its .claude/ and .pilot/ folders, .mcp.json, the scripts
	// hooks run), bound read-only over the writable project so no command
	// changes them; Explain says why and what to do instead. A path that
	// does not exist, lies in a hidden one or is the project itself is
	// left out (guarded.go).
	Guarded []string
	// AllowSockets are the host's unix sockets commands may connect to
	// (Settings; "~/" is Home; a folder allows those under it); every
	// other socket of the home, the project and the known places is
	// covered (sockets.go).
	AllowSockets []string
	// Git are the session's git folders, read-only to commands (see
	// GitPaths and docs/ARCHITECTURE.md, "The sandbox of commands").
	Git GitPaths
	// NoLandlock leaves Landlock out (bubblewrap alone): for the benchmark
	// and the escape corpus's weakened control.
	NoLandlock bool
}

// Cmd is one command to run in the pod.
type Cmd struct {
	Command string   // run with bash -c
	Dir     string   // working directory (inside the project)
	Env     []string // the allowlisted environment (childenv); the pod adds TMPDIR and the proxy variables
	Output  *os.File // stdout and stderr; stdin is /dev/null
}

var (
	probeOnce sync.Once
	probed    Status
)

// Probe reports whether commands can be sandboxed here (cached for the
// process; ProbeNow probes again).
func Probe() Status {
	probeOnce.Do(func() { probed = ProbeNow() })
	return probed
}
