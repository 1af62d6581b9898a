package confine

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

// repoState is what a command could change in the user's repository:
// every file under .git but the worktree's own administrative folder,
// with its size and mode.
func repoState(t *testing.T, repo string) string {
	t.Helper()
	var b strings.Builder
	common := filepath.Join(repo, ".git")
	err := filepath.WalkDir(common, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == filepath.Join(common, "worktrees") {
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
		fmt.Fprintf(&b, "%s %s %d\n", p, fi.Mode(), size)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// In a worktree session's pod the repository's common folder is readable
// and the worktree's own folder of git writable, so git reads and the
// worktree's index work, while nothing (bubblewrap's read-only mount, and
// Landlock where the kernel has it) writes the user's objects and refs.
// Without ReadOnly (the old pod) the common folder under /tmp is replaced
// by an empty one and git does not find the repository at all.
func TestWorktreeGitInPod(t *testing.T) {
	t.Parallel()
	needSandbox(t)
	for _, noLandlock := range []bool{false, true} {
		home := t.TempDir()
		repo, wt := gitRepo(t, home)
		admin := filepath.Join(repo, ".git", "worktrees", "wt")
		if err := os.WriteFile(filepath.Join(admin, "config.worktree"), nil, 0o644); err != nil { // gitwt's PrepareSandbox
			t.Fatal(err)
		}
		note := "The repository is read-only to commands of a worktree session."
		s := NewSession(Policy{Project: wt, Home: home, NoLandlock: noLandlock,
			ReadOnly: []string{filepath.Join(repo, ".git"), filepath.Join(wt, ".git"), filepath.Join(admin, "gitdir"), filepath.Join(admin, "commondir"),
				filepath.Join(admin, "HEAD"), filepath.Join(admin, "config.worktree")}, // as gitwt.WorktreeDirs.SandboxPaths gives them
			Writable:     []string{admin},
			ReadOnlyNote: note})
		t.Cleanup(func() { s.Close() })
		env := append(baseEnv(home), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if err := os.WriteFile(filepath.Join(wt, "a.txt"), []byte("two\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := repoState(t, repo)
		for _, c := range []struct{ cmd, want string }{
			{"git status --short", " M a.txt"},
			{"git diff", "+two"},
			{"git log --oneline", "first"},
			{"git show --stat HEAD", "a.txt"},
			{"git blame HEAD -- a.txt", "one"},
			{"git read-tree HEAD && git status --short", " M a.txt"}, // writes the worktree's index
			{"git restore a.txt && git status --short && cat a.txt", "one"},
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
			"git update-ref refs/heads/main HEAD~0 && rm -rf " + filepath.Join(repo, ".git", "objects"),
			"rm -rf " + filepath.Join(repo, ".git", "refs"),
			"echo gitdir: /elsewhere > .git",
			"echo /elsewhere > " + filepath.Join(admin, "gitdir"),
			"git config user.name other",
			"git symbolic-ref HEAD refs/heads/main", // the Branch view's commit would land on main
			"echo '[core]hooksPath=/x' > " + filepath.Join(admin, "config.worktree"),
			"rm -f " + filepath.Join(admin, "HEAD"),
		} {
			out, code := run(t, s, wt, env, cmd)
			if code == 0 {
				t.Fatalf("landlock off %v: %s succeeded:\n%s", noLandlock, cmd, out)
			}
			if strings.HasPrefix(cmd, "git add") || strings.HasPrefix(cmd, "git commit") || strings.HasPrefix(cmd, "git branch") || strings.HasPrefix(cmd, "git tag") {
				got := Explain(s.Policy(), cmd, out)
				if len(got) != 1 || got[0] != note {
					t.Errorf("landlock off %v: %s: explained %q for:\n%s", noLandlock, cmd, got, out)
				}
			}
		}
		if head, err := os.ReadFile(filepath.Join(admin, "HEAD")); err != nil || string(head) != "ref: refs/heads/pilot/x\n" {
			t.Fatalf("landlock off %v: the worktree's HEAD is %q, %v", noLandlock, head, err)
		}
		if after := repoState(t, repo); after != before {
			t.Fatalf("landlock off %v: the repository changed:\nbefore\n%s\nafter\n%s", noLandlock, before, after)
		}
	}
}

// A repository in a folder the user hid stays hidden: its paths are not
// bound (a secret the user hid wins over git working); a missing path, /
// and a writable file are left out too.
func TestExtraPathsLeaveOut(t *testing.T) {
	t.Parallel()
	home, proj := t.TempDir(), t.TempDir()
	repo := filepath.Join(home, "secret", "repo", ".git")
	file := filepath.Join(proj, "f")
	for _, d := range []string{repo, filepath.Join(proj, "admin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := Policy{Project: proj, Home: home, Hidden: []string{"~/secret"},
		ReadOnly: []string{repo, filepath.Join(proj, "missing"), "/", file},
		Writable: []string{filepath.Join(repo, "worktrees"), file, "/", filepath.Join(proj, "admin")}}
	ro, rw := extraPaths(p)
	if strings.Join(ro, ",") != file || strings.Join(rw, ",") != filepath.Join(proj, "admin") {
		t.Fatalf("read-only %q, writable %q", ro, rw)
	}
}
