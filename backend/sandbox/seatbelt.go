package sandbox

import (
	"fmt"
	"strings"
)

// The macOS sandbox of commands: a Seatbelt profile (SBPL, the language
// of sandbox-exec) made from the same Policy the Linux pod enforces:
//
//   - everything is refused but what the profile allows (deny default);
//   - files are readable but for the hidden secrets and the folders the
//     pod replaces (/tmp, /var/tmp and the user's temporary folder, where
//     other programs keep theirs);
//   - the project, the private temporary folder and the cache are the only
//     writable places, less the read-only paths inside them (Policy.ReadOnly,
//     the git folders, the guarded paths) and the secrets hidden there;
//   - the only way out is Pilot's proxy on a loopback port; no unix socket
//     is reachable but those the user allowed (Policy.AllowSockets);
//   - commands signal and inspect only processes of their own sandbox.
//
// Paths never appear in the profile's text: each is a parameter
// (sandbox-exec -D NAME=path, read with (param "NAME")), so no path needs
// quoting. Where each rule's form comes from is said beside it; the
// references are OpenAI Codex's profiles (codex-rs/sandboxing/src:
// seatbelt_base_policy.sbpl, seatbelt_network_policy.sbpl, seatbelt.rs),
// which start from Chromium's (sandbox/policy/mac/common.sb, network.sb).
// The golden files of the tests are testdata/*.sb.

// seatbeltProfile is a profile and the parameters it reads.
type seatbeltProfile struct {
	Text   string
	Params []seatbeltParam
}

// seatbeltParam is one sandbox-exec -D definition.
type seatbeltParam struct{ Name, Path string }

// Args are sandbox-exec's arguments to run argv under the profile.
func (sp seatbeltProfile) Args(argv ...string) []string {
	a := []string{"-p", sp.Text}
	for _, p := range sp.Params {
		a = append(a, "-D"+p.Name+"="+p.Path)
	}
	return append(append(a, "--"), argv...)
}

// seatbeltReplaced are the folders the Linux pod gets empty (replaced):
// on macOS they stay where they are, unreadable. /tmp and /var/tmp are
// links to these.
var seatbeltReplaced = []string{"/private/tmp", "/private/var/tmp"}

// seatbeltSpec is what one profile is made of: real paths.
type seatbeltSpec struct {
	writable []string // project, private temporary folder, cache
	readOnly []string // inside a writable one: never written
	hidden   []string // neither read nor written
	userTemp string   // the user's temporary folder (unreadable; "": none)
	sockets  []string // unix sockets commands may connect to
	port     int      // the proxy's loopback port; 0: no network
}

// seatbeltSpecFor resolves p as the pod does (hiddenPaths, readOnlyPaths,
// guardedPaths), tmp being the session's private temporary folder, cache
// p.Cache and port the proxy's port.
func seatbeltSpecFor(p Policy, tmp, userTemp string, port int) seatbeltSpec {
	sp := seatbeltSpec{port: port}
	for _, w := range []string{p.Project, tmp, p.Cache} {
		if real := expand(w, ""); real != "" && real != "/" {
			sp.writable = append(sp.writable, real)
		}
	}
	seen := map[string]bool{}
	for _, r := range append(readOnlyPaths(p), guardedPaths(p)...) {
		if !seen[r] {
			seen[r] = true
			sp.readOnly = append(sp.readOnly, r)
		}
	}
	for _, h := range hiddenPaths(p) {
		if h != p.Project { // the user chose to work there: the project wins, as in the pod
			sp.hidden = append(sp.hidden, h)
		}
	}
	if real := expand(userTemp, ""); real != "" && real != "/" {
		sp.userTemp = real
	}
	sp.sockets = allowedSockets(p)
	return sp
}

// seatbeltBase are the rules every profile starts with.
const seatbeltBase = `(version 1)

; Closed by default; each allow below opens one thing.
; Form: Codex seatbelt_base_policy.sbpl, from Chromium common.sb.
(deny default)

; Commands start commands, which inherit the profile.
; Form: Codex seatbelt_base_policy.sbpl.
(allow process-exec)
(allow process-fork)

; Signals and process information only within this sandbox: the pod's
; PID namespace on Linux. Form: Codex seatbelt_base_policy.sbpl.
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))

; What the C library, the shells and the runtimes read about the machine;
; no kern.procargs (other processes' command lines). Form: Codex
; seatbelt_base_policy.sbpl (sysctl-name, sysctl-name-prefix).
(allow sysctl-read
  (sysctl-name-prefix "hw.")
  (sysctl-name-prefix "machdep.cpu.")
  (sysctl-name-prefix "kern.proc.pid.")
  (sysctl-name-prefix "kern.proc.pgrp.")
  (sysctl-name "kern.argmax")
  (sysctl-name "kern.hostname")
  (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.maxproc")
  (sysctl-name "kern.osproductversion")
  (sysctl-name "kern.osrelease")
  (sysctl-name "kern.ostype")
  (sysctl-name "kern.osversion")
  (sysctl-name "kern.secure_kernel")
  (sysctl-name "kern.usrstack64")
  (sysctl-name "kern.version")
  (sysctl-name "sysctl.proc_cputype")
  (sysctl-name "vm.loadavg"))

; User and group names (getpwuid: git, ssh, ~ expansion); semaphores
; (Python's multiprocessing); preferences read by Apple's tools. No
; keychain (com.apple.SecurityServer): its secrets stay hidden.
; Form: Codex seatbelt_base_policy.sbpl, from Chromium (crbug.com/792228).
(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))
(allow ipc-posix-sem)
(allow user-preference-read)

; Pseudo-terminals (script, expect). Form: Codex seatbelt_base_policy.sbpl.
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))

; /dev/null is written, as everywhere. Form: Codex
; seatbelt_base_policy.sbpl (require-all, vnode-type).
(allow file-write-data
  (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))
`

// profile renders the profile and its parameters.
func (sp seatbeltSpec) profile() seatbeltProfile {
	var b strings.Builder
	var params []seatbeltParam
	param := func(name, path string) string {
		params = append(params, seatbeltParam{name, path})
		return fmt.Sprintf(`(param "%s")`, name)
	}
	numbered := func(prefix string, i int, path string) string { return param(fmt.Sprintf("%s_%d", prefix, i), path) }
	b.WriteString(seatbeltBase)

	hidden := make([]string, len(sp.hidden))
	for i, h := range sp.hidden {
		hidden[i] = numbered("HIDDEN", i, h)
	}
	// Reads: the whole disk less what is excluded (each path and all
	// beneath it). Form: Codex seatbelt.rs, build_seatbelt_access_policy
	// (require-all of subpath and require-not).
	b.WriteString("\n; Reads: every file but the hidden secrets and other programs' temporary files.\n")
	b.WriteString("; Form: Codex seatbelt.rs (allow file-read* (require-all (subpath ...) (require-not ...))).\n")
	b.WriteString(`(allow file-read*` + "\n" + `  (require-all (subpath "/")`)
	for _, h := range hidden {
		fmt.Fprintf(&b, "\n    (require-not (subpath %s))", h)
	}
	for _, r := range seatbeltReplaced {
		fmt.Fprintf(&b, "\n    (require-not (subpath %q))", r)
	}
	if sp.userTemp != "" {
		fmt.Fprintf(&b, "\n    (require-not (subpath %s))", param("USER_TEMP", sp.userTemp))
	}
	b.WriteString("))\n")

	// Writes (and reads, where the rule above left a writable place out:
	// a worktree session's project lies in the hidden PILOT_HOME): each
	// writable root less the read-only and hidden paths inside it. Form:
	// Codex seatbelt.rs (require-not literal and subpath: subpath alone
	// leaves the path's own creation open).
	ro := map[string]string{}
	for i, r := range sp.readOnly {
		ro[r] = numbered("READ_ONLY", i, r)
	}
	if len(sp.readOnly) > 0 {
		// Read-only paths are shown even where the rule above hides them
		// (the pod binds them over its empty /tmp). Form: Chromium
		// common.sb (several filters in one rule: any of them).
		b.WriteString("\n; Read-only paths are readable wherever they lie.\n(allow file-read*")
		for _, r := range sp.readOnly {
			fmt.Fprintf(&b, "\n  (subpath %s)", ro[r])
		}
		b.WriteString(")\n")
	}
	b.WriteString("\n; Writes: the project, the private temporary folder and the cache, less\n")
	b.WriteString("; the read-only and hidden paths in them. Form: Codex seatbelt.rs.\n")
	for i, w := range sp.writable {
		root := numbered("WRITABLE_ROOT", i, w)
		var not strings.Builder
		for _, r := range sp.readOnly {
			if under(r, w) && r != w {
				fmt.Fprintf(&not, "\n    (require-not (literal %s)) (require-not (subpath %s))", ro[r], ro[r])
			}
		}
		var notHidden strings.Builder
		for j, h := range sp.hidden {
			if under(h, w) && h != w {
				fmt.Fprintf(&notHidden, "\n    (require-not (literal %s)) (require-not (subpath %s))", hidden[j], hidden[j])
			}
		}
		fmt.Fprintf(&b, "(allow file-read*\n  (require-all (subpath %s)%s))\n", root, notHidden.String())
		fmt.Fprintf(&b, "(allow file-write*\n  (require-all (subpath %s)%s%s))\n", root, not.String(), notHidden.String())
	}

	b.WriteString("\n; Network: ")
	if sp.port == 0 {
		b.WriteString("none (deny default refuses every connection).\n")
	} else {
		// Form: Codex seatbelt.rs, dynamic_network_policy (remote ip
		// "localhost:PORT": Seatbelt takes no numeric address there).
		b.WriteString("only Pilot's proxy, on its loopback port; TLS certificates\n")
		b.WriteString("; are checked with trustd. Form: Codex seatbelt.rs and seatbelt_network_policy.sbpl.\n")
		b.WriteString("(allow system-socket (socket-domain AF_INET) (socket-domain AF_INET6))\n")
		fmt.Fprintf(&b, "(allow network-outbound (remote ip \"localhost:%d\"))\n", sp.port)
		b.WriteString(`(allow mach-lookup (global-name "com.apple.trustd.agent") (global-name "com.apple.ocspd"))` + "\n")
	}
	if len(sp.sockets) > 0 {
		// Form: Codex seatbelt.rs, unix_socket_policy.
		b.WriteString("\n; The unix sockets the user allowed (Settings › Sandbox); no other.\n")
		b.WriteString("(allow system-socket (socket-domain AF_UNIX))\n")
		for i, s := range sp.sockets {
			fmt.Fprintf(&b, "(allow network-outbound (remote unix-socket (subpath %s)))\n", numbered("SOCKET", i, s))
		}
	}
	return seatbeltProfile{Text: b.String(), Params: params}
}
