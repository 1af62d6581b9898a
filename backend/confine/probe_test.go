package confine

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
