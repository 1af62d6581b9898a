package sandbox

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The unix sockets of the host the pod would reach. A read-only mount
// does not refuse a connect() to a pathname socket, so each is covered,
// like a hidden file, by the empty file of mode 0000: connecting fails
// with EACCES. Those under /tmp and /run are gone with those folders
// (replaced); the others are found when the pod starts:
//
//   - every pathname socket of the host's network namespace
//     (/proc/net/unix) under the home or the project: Docker Desktop's,
//     Colima's, Lima's, Podman machine's, OrbStack's, Rancher Desktop's,
//     1Password's and Bitwarden's agents, a screen session, whatever the
//     user runs;
//   - and the knownSockets that exist, which a program in another network
//     namespace may have bound.
//
// Policy.AllowSockets names the ones commands may connect to. A socket
// bound after the pod started is not covered until the session's next
// pod.

// knownSockets are where container engines and agents keep their
// sockets ("~/" is the home; globs as filepath.Match reads them). Each
// reaches a program that runs with the user's rights, or root's.
var knownSockets = []string{
	"~/.docker/run/docker.sock", "~/.docker/desktop/docker.sock", "~/.docker/desktop/*.sock",
	"~/.colima/*/docker.sock", "~/.colima/*/containerd.sock", "~/.colima/docker.sock",
	"~/.lima/*/sock/*.sock",
	"~/.local/share/containers/podman/machine/*/podman.sock", "~/.local/share/containers/podman/machine/*/*/podman.sock",
	"~/.orbstack/run/docker.sock", "~/.rd/docker.sock",
	"~/.1password/agent.sock", "~/.bitwarden-ssh-agent.sock",
	"~/.var/app/com.bitwarden.desktop/data/.bitwarden-ssh-agent.sock",
	"~/.screen/*",
	// Root's, outside the home: LXD and Incus (their group is root's
	// equal).
	"/var/snap/lxd/common/lxd/unix.socket", "/var/lib/lxd/unix.socket", "/var/lib/incus/unix.socket",
}

// procNetUnix lists the host's unix sockets (a variable for tests).
var procNetUnix = "/proc/net/unix"

// coveredSockets are the real paths of the sockets the pod gets covered:
// found as above, that exist as sockets, are not allowed, and lie in no
// hidden folder (hidden already) nor in a folder the pod replaces, unless
// bound back (the home, the project). skip are the pod's own folders.
func coveredSockets(p Policy, hidden []string, skip ...string) []string {
	home := expand(p.Home, "")
	project := expand(p.Project, "")
	allowed := allowedSockets(p)
	var out []string
	seen := map[string]bool{}
	consider := func(path string, known bool) {
		real := expand(path, "")
		if real == "" || seen[real] {
			return
		}
		seen[real] = true
		inHome := home != "" && home != "/" && under(real, home)
		inProject := project != "" && under(real, project)
		switch {
		case !known && !inHome && !inProject,
			inReplaced(real) && !inHome && !inProject,
			hiddenBy(real, hidden) != "",
			hiddenBy(real, allowed) != "",
			hiddenBy(real, skip) != "":
			return
		}
		if fi, err := os.Lstat(real); err != nil || fi.Mode().Type() != fs.ModeSocket {
			return
		}
		out = append(out, real)
	}
	for _, s := range listeningSockets() {
		consider(s, false)
	}
	for _, k := range knownSockets {
		pat := expand(k, p.Home)
		if pat == "" {
			continue
		}
		matches, _ := filepath.Glob(pat)
		for _, m := range matches {
			consider(m, true)
		}
	}
	return out
}

// listeningSockets are the absolute paths /proc/net/unix names: the
// pathname sockets bound in Pilot's network namespace (abstract ones,
// "@...", are the pod's own namespace's business: it has its own).
func listeningSockets() []string {
	f, err := os.Open(procNetUnix)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	sc.Scan() // the header
	for sc.Scan() {
		// Num RefCount Protocol Flags Type St Inode Path
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 {
			continue
		}
		if path := strings.Join(fields[7:], " "); strings.HasPrefix(path, "/") {
			out = append(out, path)
		}
	}
	return out
}

// allowedSockets are Policy.AllowSockets as real paths.
func allowedSockets(p Policy) []string {
	var out []string
	for _, a := range p.AllowSockets {
		if real := expand(a, p.Home); real != "" && real != "/" {
			out = append(out, real)
		}
	}
	return out
}

// coveredSocket is the socket among paths (as a line or a command names
// them, "~/" and "$HOME/" being the home) that the pod covers, for
// Explain; "" for none.
func coveredSocket(p Policy, hidden []string, paths []string) string {
	for _, path := range paths {
		for _, pre := range []string{"$HOME/", "${HOME}/"} {
			if rest, ok := strings.CutPrefix(path, pre); ok {
				path = "~/" + rest
			}
		}
		real := expand(path, p.Home)
		if real == "" {
			continue
		}
		if fi, err := os.Lstat(real); err != nil || fi.Mode().Type() != fs.ModeSocket {
			continue
		}
		for _, c := range coveredSockets(p, hidden) {
			if c == real {
				return real
			}
		}
	}
	return ""
}
