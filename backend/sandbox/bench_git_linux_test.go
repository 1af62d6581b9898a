//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A session's first command when the pod holds git folders read-only (a
// repository's .git and a submodule's), or the empty .git of a folder in
// no repository (made before and removed after): what the git binds add
// to a pod's start, against PodFirstStart.
func BenchmarkPodFirstStartGit(b *testing.B) {
	if !Probe().Ready {
		b.Skip(Probe().Why)
	}
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	home := b.TempDir()
	repo, lone := b.TempDir(), b.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"init", "-q", "mod"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, c := range []struct {
		name string
		dir  string
		git  GitPaths
	}{
		{"repository", repo, GitPaths{ReadOnly: []string{filepath.Join(repo, ".git"), filepath.Join(repo, "mod", ".git")}}},
		{"placeholder", lone, GitPaths{Placeholder: filepath.Join(lone, ".git")}},
	} {
		b.Run(c.name, func(b *testing.B) {
			pair(b, func() time.Duration {
				s := NewSession(Policy{Project: c.dir, Home: home, Git: c.git})
				d := podRun(b, s, c.dir)
				s.Close()
				return d
			})
			if _, err := os.Lstat(filepath.Join(lone, ".git")); c.name == "placeholder" && err == nil {
				b.Fatal("the placeholder was left")
			}
		})
	}
}
