package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// BranchPrefix is the namespace of the branches Pilot makes: pilot/NAME.
const BranchPrefix = "pilot/"

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// maxName bounds a worktree's name (it becomes a folder and a branch).
const maxName = 64

// CheckName returns nil for a name a worktree and its branch pilot/NAME can
// take, else a sentence saying what is wrong and what a good name is.
// Names are letters, digits, '.', '_' and '-', starting with a letter or
// digit: a folder name on every system and a branch name git accepts.
func CheckName(name string) error {
	const good = "use letters, digits, '.', '_' and '-', starting with a letter or digit, for example fix-login"
	switch {
	case name == "":
		return fmt.Errorf("a worktree needs a name: %s", good)
	case len(name) > maxName:
		return fmt.Errorf("the worktree name %q is longer than %d characters: choose a shorter one", name, maxName)
	case !nameRE.MatchString(name):
		return fmt.Errorf("%q cannot name a worktree: %s", name, good)
	case strings.Contains(name, ".."), strings.HasSuffix(name, "."), strings.HasSuffix(name, ".lock"):
		return fmt.Errorf("%q cannot name a git branch (no \"..\", no final \".\" or \".lock\"): %s", name, good)
	}
	return nil
}

// Head returns the commit HEAD of the repository at dir points at, or a
// sentence when it has no commit yet.
func (g Git) Head(ctx context.Context, dir string) (string, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return "", err
	}
	out, err := r.run(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return "", fmt.Errorf("the repository at %s has no commit yet, and a worktree starts from one: make a first commit (git add -A && git commit -m start)", dir)
	}
	return strings.TrimSpace(out), nil
}

// BranchExists reports whether the local branch exists in dir's repository.
func (g Git) BranchExists(ctx context.Context, dir, branch string) (bool, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return false, err
	}
	return r.branchExists(ctx, branch)
}

func (r runner) branchExists(ctx context.Context, branch string) (bool, error) {
	_, err := r.run(ctx, "show-ref", "--verify", "--quiet", "refs/heads/"+branch)
	if err == nil {
		return true, nil
	}
	// show-ref --quiet prints nothing: its exit 1 is "no such ref".
	if strings.HasSuffix(err.Error(), "exit status 1") {
		return false, nil
	}
	return false, err
}

// AddWorktree makes a new worktree at path on a new branch made from
// base (a commit), with `git worktree add -b`. The only writes in the
// repository's .git are what git itself records for a worktree (its
// entry under worktrees/ and the branch's ref). path's parent is created.
// No hook (post-checkout) and no filter of the repository runs (see
// harden.go).
func (g Git) AddWorktree(ctx context.Context, repo, path, branch, base string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	_, err := g.Run(ctx, repo, "worktree", "add", "--quiet", "-b", branch, path, base)
	return err
}

// RemoveWorktree removes the worktree at path with everything in it
// (--force: its uncommitted changes go too), and forgets a worktree whose
// folder is already gone (prune). Removing one that git does not know is
// not an error.
func (g Git) RemoveWorktree(ctx context.Context, repo, path string) error {
	r, err := g.at(ctx, repo)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		if _, err := r.run(ctx, "worktree", "remove", "--force", "--force", path); err != nil {
			return err
		}
	}
	_, err = r.run(ctx, "worktree", "prune")
	return err
}

// DeleteBranch deletes a local branch, merged or not; a branch that does
// not exist is not an error.
func (g Git) DeleteBranch(ctx context.Context, repo, branch string) error {
	r, err := g.at(ctx, repo)
	if err != nil {
		return err
	}
	ok, err := r.branchExists(ctx, branch)
	if err != nil || !ok {
		return err
	}
	_, err = r.run(ctx, "branch", "-D", "--", branch)
	return err
}
