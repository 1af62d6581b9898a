package sandbox

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// maxExplained bounds the sentences for one command's output.
const maxExplained = 6

var (
	// pathIn finds the paths a line of output names: quoted, or bare
	// absolute ones (bash's "line 1: /x: ...").
	pathIn = regexp.MustCompile(`'(/[^']*)'|"(/[^"]*)"|‘(/[^’]*)’|(?:^|[\s:(\[])(/[^\s:'"()\[\]]*)`)
	erofs  = regexp.MustCompile(`(?i)read-only file system|\bEROFS\b`)
	// relROFS finds a relative path a line says is on a read-only file
	// system (bash's "line 1: ../x: Read-only file system", touch's
	// "cannot touch '../x': Read-only file system").
	relROFS  = regexp.MustCompile(`(?i)(?:'([^'/][^']*)'|([^\s:'"/][^\s:'"]*)):\s*read-only file system`)
	denied   = regexp.MustCompile(`(?i)permission denied|\bEACCES\b`)
	noNet    = regexp.MustCompile(`(?i)network is unreachable|\bENETUNREACH\b|could not resolve host|temporary failure in name resolution|name or service not known|\bEAI_AGAIN\b|no address associated with hostname|getaddrinfo|server misbehaving|no such host|connection refused|\bECONNREFUSED\b|couldn't connect to server|failed to connect to`)
	hostIn   = regexp.MustCompile(`(?i)(?:resolve host:?|connect to|lookup|getaddrinfo \w+|dial tcp)\s+'?\[?([A-Za-z0-9.:_-]*[A-Za-z0-9])\]?'?(?:\s+port\s+(\d+))?`)
	noProc   = regexp.MustCompile(`(?i)no such process|\bESRCH\b`)
	notPerm  = regexp.MustCompile(`(?i)operation not permitted|\bEPERM\b`)
	chmodOut = regexp.MustCompile(`(?i)changing permissions of|chmod|install:`)
	suidMode = regexp.MustCompile(`\b(chmod|install)\b.*(\s[ugoa]*[+=][rwxXt]*s|\s-m\s*[0-7]*[2467][0-7]{3}\b|\s[0-7]*[2467][0-7]{3}\b)`)
	// noWrite is a line saying a write was refused, git's own words included.
	noWrite  = regexp.MustCompile(`(?i)read-only file system|\bEROFS\b|permission denied|\bEACCES\b|insufficient permission`)
	gitVerb  = regexp.MustCompile(`\bgit\b`)
	procVerb = regexp.MustCompile(`\b(kill|pkill|killall|strace|gdb|ltrace|ptrace|nsenter|renice|ionice|prlimit|taskset)\b`)
)

// Explain returns a sentence for each thing the sandbox blocked that the
// command's output shows (a read-only file system, a hidden secret, a
// refused connection, a process outside), naming the sandbox; none when
// nothing was blocked.
func Explain(p Policy, command, output string) []string {
	var out []string
	seen := map[string]bool{}
	say := func(s string) {
		if !seen[s] && len(out) < maxExplained {
			seen[s] = true
			out = append(out, s)
		}
	}
	hidden := hiddenPaths(p)
	writable := "only the project"
	if p.Project != "" {
		writable += " (" + short(p.Project, p.Home) + ")"
	}
	writable += " and the temporary folder $TMPDIR"
	if p.Cache != "" {
		writable += " and the cache $XDG_CACHE_HOME"
	}
	ro, git := keepReadOnly(p, p.ReadOnly), gitPaths(p)
	guarded := guardedPaths(p)
	net, proc, sock := false, false, false
	for line := range strings.SplitSeq(output, "\n") {
		switch {
		case p.Git.Note != "" && noWrite.MatchString(line) && gitIn(p, line, command, git):
			say(p.Git.Note)
		case p.ReadOnlyNote != "" && noWrite.MatchString(line) && readOnlyIn(line, ro):
			say(p.ReadOnlyNote)
		case guardedIn(line, p.Project, guarded) != "":
			say(guardedNote(guardedIn(line, p.Project, guarded), p.Home))
		case erofs.MatchString(line):
			path := firstPath(line)
			if m := relROFS.FindStringSubmatch(line); path == "" && m != nil && p.Project != "" {
				path = filepath.Join(p.Project, m[1]+m[2]) // commands start in the project
			}
			if path != "" {
				say(fmt.Sprintf("The sandbox blocked writing to %s: commands may write %s; to write elsewhere, ask the user by running the command again with sandbox: false and a reason.", short(path, p.Home), writable))
			} else {
				say(fmt.Sprintf("The sandbox blocked a write (read-only file system): commands may write %s; to write elsewhere, ask the user by running the command again with sandbox: false and a reason.", writable))
			}
		case denied.MatchString(line):
			for _, path := range paths(line) {
				if h := hiddenBy(path, hidden); h != "" {
					say(fmt.Sprintf("%s is hidden from commands by the sandbox (it holds secrets): a command can neither read nor list it.", short(h, p.Home)))
				}
			}
		}
		if (denied.MatchString(line) || noNet.MatchString(line)) && !sock {
			sock = true
			if s := coveredSocket(p, hidden, append(paths(line), commandPaths(command)...)); s != "" {
				say(fmt.Sprintf("%s is a unix socket of a program on this machine, which would act with your rights: the sandbox covers it, so commands cannot connect to it. The user can allow it in Settings › Sandbox (sockets commands may connect to).", short(s, p.Home)))
				net = true // the failure is the socket's, not the network's
			}
		}
		if noNet.MatchString(line) && !net {
			net = true
			what := "A connection failed in the sandbox"
			if m := hostIn.FindStringSubmatch(line); m != nil && m[1] != "" {
				target := m[1]
				if m[2] != "" {
					target += ":" + m[2]
				}
				what = fmt.Sprintf("The connection to %s failed in the sandbox", target)
			}
			if p.Proxy == nil {
				say(what + ": commands have no network in this session (nothing but their own loopback), so no host, and no server on the host, can be reached.")
			} else {
				say(what + ": commands have no network but through Pilot's proxy; an allowed host is reached through HTTP(S)_PROXY (curl, pip, npm, go and git use it), and a server on the host is not reachable.")
			}
		}
		if notPerm.MatchString(line) && chmodOut.MatchString(line) && suidMode.MatchString(command) {
			say("The sandbox refuses the setuid and setgid bits: a file a command makes cannot be given its owner's rights, since it could run with them outside the sandbox.")
		}
		if !proc && (noProc.MatchString(line) || notPerm.MatchString(line)) && (procVerb.MatchString(line) || procVerb.MatchString(command)) {
			proc = true
			say("The sandbox keeps commands away from processes outside it: a command sees, signals and traces only the processes this session's commands started.")
		}
	}
	return out
}

// readOnlyIn reports whether a line refusing a write names a path that
// Policy.ReadOnly holds.
func readOnlyIn(line string, ro []string) bool {
	for _, path := range paths(line) {
		if within(path, ro) {
			return true
		}
	}
	return false
}

// commandPaths are the paths a command names: absolute, or under ~/ or
// $HOME/ (curl --unix-socket ~/.docker/run/docker.sock).
func commandPaths(command string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(command, func(r rune) bool { return strings.ContainsRune(" \t\n'\"=;()|&<>", r) }) {
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~/") || strings.HasPrefix(f, "$HOME/") || strings.HasPrefix(f, "${HOME}/") {
			out = append(out, f)
		}
	}
	return out
}

// firstPath is the first absolute path a line names.
func firstPath(line string) string {
	if ps := paths(line); len(ps) > 0 {
		return ps[0]
	}
	return ""
}

// paths are the absolute paths a line names.
func paths(line string) []string {
	var out []string
	for _, m := range pathIn.FindAllStringSubmatch(line, -1) {
		for _, g := range m[1:] {
			if g != "" && g != "/" {
				out = append(out, filepath.Clean(g))
				break
			}
		}
	}
	return out
}

// hiddenBy is the hidden path that path lies in ("": none).
func hiddenBy(path string, hidden []string) string {
	for _, h := range hidden {
		if under(path, h) {
			return h
		}
	}
	return ""
}

// short writes a path under home with "~".
func short(path, home string) string {
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(path, strings.TrimSuffix(home, "/")+"/"); ok {
			return "~/" + rest
		}
		if path == home {
			return "~"
		}
	}
	return path
}
