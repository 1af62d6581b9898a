//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"pilot/backend/hostexec"
)

// ProbeNow probes the machine now: it finds bwrap, reads its version and
// starts a trivial sandbox with the pod's namespaces and flags.
func ProbeNow() Status {
	st := Status{LandlockABI: LandlockABI()}
	bwrap, err := hostexec.LookPath("bwrap")
	var skip *hostexec.SkippedError
	switch {
	case errors.As(err, &skip):
		st.UserNS = userNSSentence("")
		st.Why = "bubblewrap cannot be used: " + err.Error() + "."
		return st
	case err != nil:
		st.UserNS = userNSSentence("")
		st.Why = "bubblewrap (bwrap) is not installed: install the package bubblewrap (sudo apt-get install bubblewrap, or dnf/pacman install bubblewrap), then restart Pilot."
		return st
	}
	st.Bwrap = bwrap
	if out, err := exec.Command(bwrap, "--version").Output(); err == nil {
		st.BwrapVersion = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "bubblewrap"))
	}
	out, err := exec.Command(bwrap, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true").CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		st.UserNS = userNSSentence(msg)
		st.Why = fmt.Sprintf("bubblewrap cannot start a sandbox here (%s): %s", msg, userNSFix())
		return st
	}
	st.UserNS = "User namespaces are available: a trial sandbox started."
	st.Ready = true
	return st
}

// sysctl reads a /proc/sys value ("" when absent).
func sysctl(name string) string {
	b, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(name, ".", "/"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// userNSSentence says whether user namespaces are available, from the
// kernel's settings (trial: bwrap's error, "" when it was not tried).
func userNSSentence(trial string) string {
	if fix := userNSFix(); fix != "" && !strings.HasPrefix(fix, "bubblewrap") {
		return "User namespaces are not available to Pilot: " + fix
	}
	if trial != "" {
		return "User namespaces could not be created: " + trial + "."
	}
	if _, err := os.Stat("/proc/self/ns/user"); err != nil {
		return "This kernel has no user namespaces (CONFIG_USER_NS is off): a kernel built with them (any distribution's since 2016) is needed."
	}
	return "User namespaces seem available (bubblewrap is needed to try one)."
}

// userNSFix is what to change when bwrap cannot create its namespaces.
func userNSFix() string {
	return userNSFixFor(sysctl, exists("/proc/self/ns/user"), os.Geteuid() == 0)
}

// userNSFixFor decides from the kernel's settings (read), whether the
// kernel has user namespaces at all, and whether Pilot runs as root.
func userNSFixFor(read func(string) string, hasUserNS, root bool) string {
	switch {
	case !hasUserNS:
		return "this kernel has no user namespaces (CONFIG_USER_NS is off); a kernel built with them is needed (every major distribution's since 2016)."
	case read("user.max_user_namespaces") == "0":
		return "user namespaces are switched off (user.max_user_namespaces = 0); run `sudo sysctl -w user.max_user_namespaces=15000` and put `user.max_user_namespaces=15000` in /etc/sysctl.d/60-userns.conf to keep it."
	case !root && read("kernel.unprivileged_userns_clone") == "0":
		return "unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0); run `sudo sysctl -w kernel.unprivileged_userns_clone=1` and put it in /etc/sysctl.d/60-userns.conf to keep it."
	case !root && read("kernel.apparmor_restrict_unprivileged_userns") == "1":
		return "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, as on Ubuntu 23.10 and later); allow them for bwrap with a profile, /etc/apparmor.d/bwrap containing `abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then `sudo systemctl reload apparmor`."
	}
	return "bubblewrap's message says what failed; check that user namespaces are allowed (sysctl user.max_user_namespaces) and that no security module blocks bwrap."
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// LandlockABI is the Landlock ABI version the kernel offers (0: none,
// compiled out or disabled at boot).
func LandlockABI() int {
	const sysLandlockCreateRuleset = 444
	const versionFlag = 1 // LANDLOCK_CREATE_RULESET_VERSION
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, versionFlag)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// versionAtLeast reports whether a "major.minor[.patch]" version is at
// least major.minor.
func versionAtLeast(v string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(v, "%d.%d", &a, &b); err != nil {
		return false
	}
	return a > major || (a == major && b >= minor)
}
