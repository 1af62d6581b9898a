package gitwt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNothingToCommit: the files to commit hold no change.
var ErrNothingToCommit = errors.New("there is nothing to commit: the files hold no change against the last commit")

// CommitAll commits everything in the work tree of dir (changed, deleted
// and untracked files git does not ignore) on its branch, with message.
// It returns the abbreviated commit and the files it holds.
// What is committed is the files as they are (see unmarkIndex).
func (g Git) CommitAll(ctx context.Context, dir, message string) (string, []string, error) {
	if err := g.unmarkIndex(ctx, dir); err != nil {
		return "", nil, err
	}
	if _, err := g.Run(ctx, dir, "add", "-A", "--", "."); err != nil {
		return "", nil, err
	}
	return g.commitStaged(ctx, dir, message, nil)
}

// unmarkIndex rebuilds the index of a worktree at dir from HEAD when an
// entry is marked skip-worktree or assume-unchanged (`git ls-files -v`: a
// tag other than "H", or in lower case). git takes such an entry as it
// is staged, not as the file on disk, so a command of the session (the
// worktree's index is writable in its sandbox) could otherwise hide a
// change from the branch's review or commit content no file holds.
func (g Git) unmarkIndex(ctx context.Context, dir string) error {
	marked, err := g.indexMarked(ctx, dir)
	if err != nil || !marked {
		return err
	}
	_, err = g.Run(ctx, dir, "read-tree", "HEAD")
	return err
}

// indexMarked reports whether an entry of dir's index is marked
// skip-worktree or assume-unchanged (see unmarkIndex).
func (g Git) indexMarked(ctx context.Context, dir string) (bool, error) {
	out, err := g.Run(ctx, dir, "ls-files", "-v", "-z")
	if err != nil {
		return false, err
	}
	for e := range strings.SplitSeq(out, "\x00") {
		if e != "" && !strings.HasPrefix(e, "H ") {
			return true, nil
		}
	}
	return false, nil
}

// CommitPaths commits the files paths (relative to dir) as they are in
// dir's work tree, and nothing else the user staged, with message. A path
// that is neither on disk nor tracked is left out.
func (g Git) CommitPaths(ctx context.Context, dir, message string, paths []string) (string, []string, error) {
	var add, gone []string
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		} else {
			add = append(add, p)
		}
	}
	if len(add) > 0 {
		if _, err := g.Run(ctx, dir, append([]string{"add", "-A", "--"}, add...)...); err != nil {
			return "", nil, err
		}
	}
	if len(gone) > 0 {
		if _, err := g.Run(ctx, dir, append([]string{"rm", "-q", "--cached", "--ignore-unmatch", "--"}, gone...)...); err != nil {
			return "", nil, err
		}
	}
	if len(paths) == 0 {
		return "", nil, ErrNothingToCommit
	}
	return g.commitStaged(ctx, dir, message, paths)
}

// commitStaged commits what is staged, only of paths when given.
func (g Git) commitStaged(ctx context.Context, dir, message string, paths []string) (string, []string, error) {
	args := []string{"diff", "--cached", "--name-only", "--relative", "-z", "--"}
	staged, err := g.Run(ctx, dir, append(args, paths...)...)
	if err != nil {
		return "", nil, err
	}
	files := splitZ(staged)
	if len(files) == 0 {
		return "", nil, ErrNothingToCommit
	}
	commit := []string{"commit", "-q", "-F", "-"}
	if paths != nil {
		commit = append(append(commit, "--"), files...)
	}
	if _, err := g.RunInput(ctx, dir, []byte(message), commit...); err != nil {
		if strings.Contains(err.Error(), "user.email") || strings.Contains(err.Error(), "Author identity unknown") {
			return "", nil, fmt.Errorf("git does not know who you are, so it made no commit: run git config --global user.name \"Your Name\" and git config --global user.email you@example.com, then commit again")
		}
		return "", nil, err
	}
	head, err := g.Run(ctx, dir, "rev-parse", "--short", "HEAD")
	return strings.TrimSpace(head), files, err
}
