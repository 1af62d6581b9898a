package sandbox

import (
	"os"
	"sort"
)

// Paths inside the pod.
const (
	podExe    = "/run/pilot/pod" // Pilot's executable, read-only
	podNetDir = "/run/pilot/net" // the folder of the proxy's unix socket
)

// layout is what a pod's bwrap command line is built from.
type layout struct {
	policy   Policy
	exe      string // Pilot's executable on the host
	tmp      string // the private temporary folder (same path inside)
	netDir   string // the proxy socket's folder on the host ("": no proxy)
	hideFil  string // an empty file, mode 0000, bound over hidden files
	noUserNS bool   // bwrap has --disable-userns (0.8.0 and later)
}

// args builds bwrap's arguments for the pod.
func (l layout) args(cfg string) []string {
	a := []string{
		"--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--as-pid-1", "--cap-drop", "ALL",
	}
	if l.noUserNS {
		a = append(a, "--disable-userns") // no nested user namespace, so no capabilities anywhere inside
	}
	a = append(a,
		"--hostname", "pilot-sandbox",
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
	)
	if os.Geteuid() == 0 {
		// bwrap 0.8 leaves /proc/sys writable when its folder is not
		// (0555) though its files are (0644 root): for a root user, the
		// host's sysctls. Bind it read-only (the host's view; Landlock,
		// where the kernel has it, also refuses those writes).
		a = append(a, "--ro-bind", "/proc/sys", "/proc/sys")
	}
	var readOnly []string
	for _, d := range replaced {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue // absent, or a symlink to one of the others (/var/run)
		}
		a = append(a, "--perms", "0755", "--tmpfs", d)
		if d != "/dev/shm" {
			readOnly = append(readOnly, d)
		}
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		if real := expand(rt, ""); real != "" && !inReplaced(real) {
			if _, err := os.Stat(real); err == nil {
				a = append(a, "--perms", "0000", "--tmpfs", real)
			}
		}
	}

	// The mounts over those, shallowest first, so that a secret inside the
	// project (PILOT_HOME in it, or a project that is the home) is hidden
	// in it and a project inside a hidden folder stays visible.
	type mount struct {
		path string
		args []string
	}
	var ms []mount
	add := func(path string, args ...string) { ms = append(ms, mount{path, args}) }
	p := l.policy
	if p.Home != "" {
		if home := expand(p.Home, ""); home != "" && inReplaced(home) {
			if _, err := os.Stat(home); err == nil {
				add(home, "--ro-bind", home, home)
			}
		}
	}
	add(p.Project, "--bind", p.Project, p.Project)
	add(l.tmp, "--bind", l.tmp, l.tmp)
	if p.Cache != "" {
		add(p.Cache, "--bind", p.Cache, p.Cache)
	}
	for _, x := range append(readOnlyPaths(p), guardedPaths(p)...) {
		add(x, "--ro-bind", x, x)
	}
	hidden := hiddenPaths(p)
	for _, h := range hidden {
		if h == p.Project {
			continue // the user chose to work there: the project wins
		}
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			perms := "0000"
			if under(p.Project, h) || (p.Cache != "" && under(p.Cache, h)) {
				perms = "0111" // passable to the project or cache, still empty and unlistable
			}
			add(h, "--perms", perms, "--tmpfs", h)
		} else {
			add(h, "--ro-bind", l.hideFil, h)
		}
	}
	for _, s := range coveredSockets(p, hidden, l.tmp, l.netDir) {
		add(s, "--ro-bind", l.hideFil, s) // a read-only mount does not refuse connect()
	}
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].path) < depth(ms[j].path) })
	for _, m := range ms {
		a = append(a, m.args...)
	}
	a = append(a, "--ro-bind", l.exe, podExe)
	if l.netDir != "" {
		a = append(a, "--ro-bind", l.netDir, podNetDir) // a socket on a read-only mount still connects
	}
	for _, d := range readOnly {
		a = append(a, "--remount-ro", d)
	}
	a = append(a, "--chdir", "/", "--", podExe, podMarker, cfg)
	return a
}
