package doctor

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"pilot/backend/git"
	"pilot/backend/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.RunPodIfAsked()
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

func TestGitCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		what string
		g    git.Git
		err  error
		ok   bool
		want []string
	}{
		{"found", git.Git{Path: "/usr/bin/git", Version: "2.39.5"}, nil, true, []string{"git 2.39.5", "/usr/bin/git", "2.26 or newer", "runs no hook"}},
		{"missing", git.Git{}, git.ErrNoGit, false, []string{"not found on PATH", "install git", "no worktree sessions"}},
		{"too old", git.Git{Path: "/old/git", Version: "2.25.1"}, errors.New("git 2.25.1 at /old/git is older than 2.26, which Pilot needs to run git without the programs a repository's own configuration names: update git"), false, []string{"older than 2.26", "update git"}},
	} {
		got := gitCheck(c.g, c.err)
		if got.Name != "git" || got.OK != c.ok || got.Needed {
			t.Errorf("%s: %+v", c.what, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got.Detail, w) {
				t.Errorf("%s: %q does not say %q", c.what, got.Detail, w)
			}
		}
	}
}
