//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository with one commit under a temporary folder
// (under /tmp, which the pod replaces) and a worktree of it elsewhere, as
// Pilot makes one, and returns the repository and the worktree.
func gitRepo(t *testing.T, home string) (repo, wt string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo, wt = filepath.Join(t.TempDir(), "repo"), filepath.Join(t.TempDir(), "wt")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(baseEnv(home), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "add", "a.txt")
	git(repo, "commit", "-qm", "first")
	git(repo, "worktree", "add", "-q", "-b", "pilot/x", wt)
	return repo, wt
}

// repoState is what a command could change in a repository: every file
// under its .git but skip (a folder in it, "" none), with its size,
// mode and time.
func repoState(t *testing.T, repo, skip string) string {
	t.Helper()
	var b strings.Builder
	common := filepath.Join(repo, ".git")
	err := filepath.WalkDir(common, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skip != "" && p == filepath.Join(common, skip) {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		size := fi.Size()
		if d.IsDir() {
			size = 0
		}
		fmt.Fprintf(&b, "%s %s %d %d\n", p, fi.Mode(), size, fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// In a worktree session's pod the repository's common folder, the
// worktree's own folder in it (its index, HEAD, logs) and the worktree's
// .git file are readable, so git reads work, while nothing
// (bubblewrap's read-only mount, and Landlock where the kernel has it)
// writes any of them. Without Git (the old pod) the common folder under
// /tmp is replaced by an empty one and git does not find the repository
// at all.
func TestWorktreeGitInPod(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, noLandlock := range []bool{false, true} {
		home := t.TempDir()
		repo, wt := gitRepo(t, home)
		admin := filepath.Join(repo, ".git", "worktrees", "wt")
		note := "The repository is read-only to commands of a worktree session."
		s := NewSession(Policy{Project: wt, Home: home, NoLandlock: noLandlock,
			Git: GitPaths{ReadOnly: []string{filepath.Join(wt, ".git"), admin, filepath.Join(repo, ".git")}, Note: note}}) // as git.PodPaths gives them
		t.Cleanup(func() { s.Close() })
		env := append(baseEnv(home), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if err := os.WriteFile(filepath.Join(wt, "a.txt"), []byte("two\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := repoState(t, repo, "")
		for _, c := range []struct{ cmd, want string }{
			{"git status --short", " M a.txt"},
			{"git diff", "+two"},
			{"git log --oneline", "first"},
			{"git show --stat HEAD", "a.txt"},
			{"git blame HEAD -- a.txt", "one"},
			{"git show HEAD:a.txt > a.txt && git status --short && cat a.txt", "one"}, // undoing a change without the index
		} {
			out, code := run(t, s, wt, env, c.cmd)
			if code != 0 || !strings.Contains(out, c.want) {
				t.Fatalf("landlock off %v: %s: exit %d, want %q in:\n%s", noLandlock, c.cmd, code, c.want, out)
			}
		}
		if err := os.WriteFile(filepath.Join(wt, "a.txt"), []byte("three\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{
			"git add a.txt",
			"git commit -qam second",
			"git branch other",
			"git tag v1",
			"git read-tree HEAD",
			"git update-index --skip-worktree a.txt",
			"git restore --staged a.txt",
			"git update-ref refs/heads/main HEAD~0 && rm -rf " + filepath.Join(repo, ".git", "objects"),
			"rm -rf " + filepath.Join(repo, ".git", "refs"),
			"echo gitdir: /elsewhere > .git",
			"echo /elsewhere > " + filepath.Join(admin, "gitdir"),
			"git config user.name other",
			"git symbolic-ref HEAD refs/heads/main", // the Branch view's commit would land on main
			"echo '[core]hooksPath=/x' > " + filepath.Join(admin, "config.worktree"),
			"rm -f " + filepath.Join(admin, "HEAD"),
			"rm -f " + filepath.Join(admin, "index"),
		} {
			out, code := run(t, s, wt, env, cmd)
			if code == 0 {
				t.Fatalf("landlock off %v: %s succeeded:\n%s", noLandlock, cmd, out)
			}
			if strings.HasPrefix(cmd, "git ") && !strings.HasPrefix(cmd, "git update-ref") {
				got := Explain(s.Policy(), cmd, out)
				if len(got) != 1 || got[0] != note {
					t.Errorf("landlock off %v: %s: explained %q for:\n%s", noLandlock, cmd, got, out)
				}
			}
		}
		if head, err := os.ReadFile(filepath.Join(admin, "HEAD")); err != nil || string(head) != "ref: refs/heads/pilot/x\n" {
			t.Fatalf("landlock off %v: the worktree's HEAD is %q, %v", noLandlock, head, err)
		}
		if after := repoState(t, repo, ""); after != before {
			t.Fatalf("landlock off %v: the repository changed:\nbefore\n%s\nafter\n%s", noLandlock, before, after)
		}
	}
}

// A repository in a folder the user hid stays hidden: its paths are not
// bound (a secret the user hid wins over git working), unless they lie in
// the project, which is shown where it lies (a worktree in PILOT_HOME);
// a missing path and / are left out too.
func TestReadOnlyPathsLeaveOut(t *testing.T) {
	t.Parallel()
	home, ph := t.TempDir(), t.TempDir()
	repo := filepath.Join(home, "secret", "repo", ".git")
	proj := filepath.Join(ph, "worktrees", "1", "x")
	file := filepath.Join(proj, "f")
	for _, d := range []string{repo, filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := Policy{Project: proj, Home: home, PilotHome: ph, Hidden: []string{"~/secret"},
		ReadOnly: []string{repo, filepath.Join(proj, "missing"), "/", file},
		Git:      GitPaths{ReadOnly: []string{repo, filepath.Join(proj, ".git")}, Placeholder: filepath.Join(proj, "gone")}}
	if got := strings.Join(readOnlyPaths(p), ","); got != file+","+filepath.Join(proj, ".git") {
		t.Fatalf("read-only %q", got)
	}
}
