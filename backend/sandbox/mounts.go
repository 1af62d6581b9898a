package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Paths inside the pod.
const (
	podExe    = "/run/pilot/pod" // Pilot's executable, read-only
	podNetDir = "/run/pilot/net" // the folder of the proxy's unix socket
)

// podMarker is the argument that makes Pilot's own executable act as a pod.
const podMarker = "__pilot_confine_pod__"

// DefaultHidden are the secrets hidden from commands, "~/" being the home:
// keys, tokens and passwords, and the histories that hold them as typed.
// Left out on purpose, because tools need them to work at all and the
// credentials in them sit beside settings (Settings › Sandbox hides them
// for a user who keeps secrets there): ~/.gitconfig, ~/.m2/settings.xml,
// ~/.gradle/gradle.properties, ~/.config/pip/pip.conf, ~/.cargo/config.toml,
// ~/.condarc, ~/.nuget.
var DefaultHidden = []string{
	"~/.ssh", "~/.gnupg", "~/.aws", "~/.config/gcloud", "~/.kube", "~/.docker/config.json",
	"~/.netrc", "~/.local/share/keyrings", "~/.password-store", "~/.config/gh",
	// Credentials of git, package registries, clouds and services.
	"~/.git-credentials", "~/.config/git/credentials", "~/.npmrc", "~/.yarnrc.yml", "~/.pypirc",
	"~/.cargo/credentials.toml", "~/.cargo/credentials", "~/.gem/credentials", "~/.composer/auth.json",
	"~/.config/composer/auth.json", "~/.m2/settings-security.xml", "~/.azure", "~/.config/hub",
	"~/.config/glab-cli", "~/.terraform.d/credentials.tfrc.json", "~/.terraformrc", "~/.vault-token",
	"~/.config/doctl", "~/.config/hcloud", "~/.oci", "~/.fly", "~/.s3cfg", "~/.boto", "~/.config/rclone",
	"~/.config/containers/auth.json", "~/.config/op", "~/.op", "~/.config/sops", "~/.pgpass", "~/.my.cnf",
	"~/.authinfo", "~/.authinfo.gpg",
	// Coding agents' logins.
	"~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json", "~/.config/github-copilot",
	// Browsers' and mail's profiles: cookies, saved passwords.
	"~/.mozilla", "~/.thunderbird", "~/.config/google-chrome", "~/.config/chromium", "~/.config/BraveSoftware",
	// Shell and REPL histories.
	"~/.bash_history", "~/.zsh_history", "~/.histfile", "~/.local/share/fish/fish_history", "~/.python_history",
	"~/.node_repl_history", "~/.psql_history", "~/.mysql_history", "~/.sqlite_history", "~/.rediscli_history",
	"~/.irb_history",
}

// replaced are the folders the pod gets empty in place of the host's: they
// hold the sockets of the session (X11, D-Bus, docker, the user's runtime
// folder) and other programs' temporary files.
var replaced = []string{"/tmp", "/var/tmp", "/run", "/var/run", "/dev/shm"}

// layout is what a pod's bwrap command line is built from.
type layout struct {
	policy   Policy
	exe      string // Pilot's executable on the host
	tmp      string // the private temporary folder (same path inside)
	netDir   string // the proxy socket's folder on the host ("": no proxy)
	hideFil  string // an empty file, mode 0000, bound over hidden files
	noUserNS bool   // bwrap has --disable-userns (0.8.0 and later)
}

// expand resolves "~/" against home and makes p absolute and real (a
// missing path stays as written; its parent is resolved when it exists).
func expand(p, home string) string {
	p = inHome(p, home)
	if p == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// inHome resolves "~/" against home and cleans p; "" when p is not
// absolute then. Links are left as they are.
func inHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home == "" {
			return ""
		}
		p = filepath.Join(home, rest)
	} else if p == "~" {
		p = home
	}
	if !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// hiddenPaths are the real paths to hide that exist.
func hiddenPaths(p Policy) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range append(append(append([]string{}, DefaultHidden...), p.PilotHome), p.Hidden...) {
		if h == "" {
			continue
		}
		// Most of the list is absent: one lstat says so before resolving.
		if raw := inHome(h, p.Home); raw == "" {
			continue
		} else if _, err := os.Lstat(raw); err != nil {
			continue
		}
		real := expand(h, p.Home)
		if real == "" || real == "/" || seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, real)
	}
	return out
}

// readOnlyPaths are the real paths of Policy.ReadOnly and of the git
// folders (gitPaths) to bind read-only.
func readOnlyPaths(p Policy) []string {
	return append(keepReadOnly(p, p.ReadOnly), gitPaths(p)...)
}

// keepReadOnly are the real paths of list that exist and lie in no hidden
// path (a secret the user hid wins over a repository in it), but for
// those inside the project, which is shown where it lies (in PILOT_HOME,
// for a worktree session).
func keepReadOnly(p Policy, list []string) []string {
	hidden := hiddenPaths(p)
	project := expand(p.Project, "")
	var out []string
	for _, x := range list {
		real := expand(x, "")
		if real == "" || real == "/" {
			continue
		}
		if h := hiddenBy(real, hidden); h != "" && !(project != "" && under(real, project) && under(project, h)) {
			continue
		}
		if _, err := os.Lstat(real); err != nil {
			continue
		}
		out = append(out, real)
	}
	return out
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// depth counts a path's components.
func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

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

// inReplaced reports whether p lies in a folder the pod replaces.
func inReplaced(p string) bool {
	for _, d := range replaced {
		if under(p, d) {
			return true
		}
		if real, err := filepath.EvalSymlinks(d); err == nil && under(p, real) {
			return true
		}
	}
	return false
}
