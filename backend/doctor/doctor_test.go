package doctor

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"pilot/backend/confine"
)

func TestMain(m *testing.M) {
	confine.RunPodIfAsked()
	os.Exit(m.Run())
}

// On a machine with bubblewrap every needed check is OK, the proxy check
// having gone through a real pod; each check is a sentence.
func TestRun(t *testing.T) {
	t.Parallel()
	r := Run(context.Background())
	names := map[string]Check{}
	for _, c := range r.Checks {
		names[c.Name] = c
		if !strings.HasSuffix(c.Detail, ".") || c.Detail == "" {
			t.Errorf("%s: %q is not a sentence", c.Name, c.Detail)
		}
	}
	for _, n := range []string{"sandbox", "bubblewrap", "user namespaces", "landlock", "proxy", "git", "rg"} {
		if _, ok := names[n]; !ok {
			t.Errorf("no %s check", n)
		}
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		if r.Ready || names["sandbox"].OK {
			t.Fatalf("no bwrap, yet %+v", r)
		}
		return
	}
	if !r.Ready {
		t.Fatalf("not ready: %+v", r)
	}
	if !names["proxy"].OK || !strings.Contains(names["proxy"].Detail, "came through to Pilot") {
		t.Errorf("proxy: %+v", names["proxy"])
	}
	if names["git"].Needed || names["rg"].Needed {
		t.Error("git or rg marked as needed")
	}
}
