package git

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
// What is committed is the files as they are (see unmarkIndex). No hook
// runs (see harden.go).
func (g Git) CommitAll(ctx context.Context, dir, message string) (string, []string, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return "", nil, err
	}
	if err := r.unmarkIndex(ctx); err != nil {
		return "", nil, err
	}
	changed, err := r.changedPaths(ctx)
	if err != nil {
		return "", nil, err
	}
	if len(changed) == 0 {
		return "", nil, ErrNothingToCommit
	}
	var spec strings.Builder
	for _, p := range changed {
		spec.WriteString(":(top,literal)" + p + "\x00") // git status names them from the top
	}
	if _, err := r.runInput(ctx, []byte(spec.String()), "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		return "", nil, err
	}
	return r.commitStaged(ctx, message, nil)
}

// changedPaths are the paths `git status` lists in dir, relative to the
// top of the work tree: changed, staged, deleted, both sides of a staged
// rename, untracked ones (a folder of them as one). `git add -A -- .` would make git run `git
// status` inside every submodule to see whether it changed, under the
// submodule's own configuration; adding only these paths never does
// (a submodule is listed when its commit changed, which git reads
// itself).
func (r runner) changedPaths(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, "status", "--porcelain=v2", "-z", "--untracked-files=normal", "--ignore-submodules=dirty", "--", ".")
	if err != nil {
		return nil, err
	}
	var paths []string
	recs := strings.Split(out, "\x00")
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if rec == "" {
			continue
		}
		// "1 XY sub mH mI mW hH hI path", "2 XY sub mH mI mW hH hI Xscore path"
		// then the original path, "u XY sub m1 m2 m3 mW h1 h2 h3 path", "? path".
		fields := map[byte]int{'1': 9, '2': 10, 'u': 11, '?': 2}[rec[0]]
		if fields == 0 {
			continue
		}
		parts := strings.SplitN(rec, " ", fields)
		if len(parts) != fields {
			return nil, fmt.Errorf("git status printed a record Pilot cannot read: %q", rec)
		}
		paths = append(paths, parts[fields-1])
		if rec[0] == '2' && i+1 < len(recs) {
			i++
			paths = append(paths, recs[i])
		}
	}
	return paths, nil
}

// unmarkIndex rebuilds the index from HEAD when an entry is marked
// skip-worktree or assume-unchanged (`git ls-files -v`: a tag other than
// "H", or in lower case). git takes such an entry as it is staged, not as
// the file on disk, so a mark (made by a command the user let run outside
// the sandbox; the index is read-only to sandboxed ones) could otherwise
// hide a change from the branch's review or commit content no file
// holds.
func (r runner) unmarkIndex(ctx context.Context) error {
	marked, err := r.indexMarked(ctx)
	if err != nil || !marked {
		return err
	}
	_, err = r.run(ctx, "read-tree", "HEAD")
	return err
}

// indexMarked reports whether an entry of the index is marked
// skip-worktree or assume-unchanged (see unmarkIndex).
func (r runner) indexMarked(ctx context.Context) (bool, error) {
	out, err := r.run(ctx, "ls-files", "-v", "-z")
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
// that is neither on disk nor tracked is left out. No hook runs (see
// harden.go).
func (g Git) CommitPaths(ctx context.Context, dir, message string, paths []string) (string, []string, error) {
	r, err := g.at(ctx, dir)
	if err != nil {
		return "", nil, err
	}
	var add, gone []string
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
			gone = append(gone, p)
		} else {
			add = append(add, p)
		}
	}
	if len(add) > 0 {
		if _, err := r.run(ctx, append([]string{"--literal-pathspecs", "add", "-A", "--"}, add...)...); err != nil {
			return "", nil, err
		}
	}
	if len(gone) > 0 {
		if _, err := r.run(ctx, append([]string{"--literal-pathspecs", "rm", "-q", "--cached", "--ignore-unmatch", "--"}, gone...)...); err != nil {
			return "", nil, err
		}
	}
	if len(paths) == 0 {
		return "", nil, ErrNothingToCommit
	}
	return r.commitStaged(ctx, message, paths)
}

// commitStaged commits what is staged, only of paths when given.
func (r runner) commitStaged(ctx context.Context, message string, paths []string) (string, []string, error) {
	args := []string{"--literal-pathspecs", "diff", "--cached", "--name-only", "--relative", "-z", "--no-ext-diff", "--no-textconv", "--"}
	staged, err := r.run(ctx, append(args, paths...)...)
	if err != nil {
		return "", nil, err
	}
	files := splitZ(staged)
	if len(files) == 0 {
		return "", nil, ErrNothingToCommit
	}
	commit := []string{"--literal-pathspecs", "commit", "-q", "-F", "-"}
	if paths != nil {
		commit = append(append(commit, "--"), files...)
	}
	if _, err := r.runInput(ctx, []byte(message), commit...); err != nil {
		if strings.Contains(err.Error(), "user.email") || strings.Contains(err.Error(), "Author identity unknown") {
			return "", nil, fmt.Errorf("git does not know who you are, so it made no commit: run git config --global user.name \"Your Name\" and git config --global user.email you@example.com, then commit again")
		}
		return "", nil, err
	}
	head, err := r.run(ctx, "rev-parse", "--short", "HEAD")
	return strings.TrimSpace(head), files, err
}
