//go:build linux

package sandbox

import (
	"os/exec"
	"strings"
	"testing"
)

// On a machine with bwrap (CI installs it), the probe is ready and says
// nothing is missing; without it, Why names the package to install.
func TestProbe(t *testing.T) {
	t.Parallel()
	st := ProbeNow()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if st.Ready || !strings.Contains(st.Why, "install the package bubblewrap") {
			t.Fatalf("no bwrap: %+v", st)
		}
		return
	}
	if !st.Ready || st.Why != "" || st.BwrapVersion == "" || st.Bwrap == "" {
		t.Fatalf("bwrap is here: %+v", st)
	}
	if !strings.Contains(st.UserNS, "available") {
		t.Errorf("UserNS = %q", st.UserNS)
	}
	if st.LandlockABI < 0 {
		t.Errorf("LandlockABI = %d", st.LandlockABI)
	}
	first := Probe()
	if again := Probe(); again != first {
		t.Errorf("Probe is not cached: %+v, then %+v", first, again)
	}
}

// Where user namespaces are off, the sentence names the setting and the
// command that changes it.
func TestUserNSFix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		settings  map[string]string
		hasUserNS bool
		root      bool
		want      string
	}{
		{"no CONFIG_USER_NS", nil, false, false, "CONFIG_USER_NS is off"},
		{"max 0", map[string]string{"user.max_user_namespaces": "0"}, true, true, "sudo sysctl -w user.max_user_namespaces=15000"},
		{"Debian's switch", map[string]string{"kernel.unprivileged_userns_clone": "0"}, true, false, "sudo sysctl -w kernel.unprivileged_userns_clone=1"},
		{"Debian's switch, root", map[string]string{"kernel.unprivileged_userns_clone": "0"}, true, true, "bubblewrap's message says what failed"},
		{"Ubuntu's AppArmor", map[string]string{"kernel.apparmor_restrict_unprivileged_userns": "1"}, true, false, "/etc/apparmor.d/bwrap"},
		{"all allowed", map[string]string{"user.max_user_namespaces": "15000"}, true, false, "bubblewrap's message says what failed"},
	}
	for _, tc := range tests {
		got := userNSFixFor(func(k string) string { return tc.settings[k] }, tc.hasUserNS, tc.root)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q in it", tc.name, got, tc.want)
		}
	}
}
