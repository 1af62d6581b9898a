package gitwt

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// WorktreeDirs are where git keeps a linked worktree's repository: what a
// sandboxed command in the worktree reads and writes when it runs git.
type WorktreeDirs struct {
	Common string // the repository's .git: objects, refs, config, hooks (shared with the user's tree)
	Admin  string // the worktree's own folder, Common/worktrees/NAME: its HEAD, index and logs
	Link   string // the worktree's .git file, which points at Admin
}

// SandboxPaths are the paths a command sandbox binds for git in the
// worktree: the repository's common folder read-only, the worktree's own
// folder writable, and, read-only over that, the files that tie the two
// (the worktree's .git file, Admin's gitdir and commondir), so that a
// command can neither write the user's objects and refs nor point the
// worktree at another repository.
func (d WorktreeDirs) SandboxPaths() (readOnly, writable []string) {
	return []string{d.Common, d.Link, filepath.Join(d.Admin, "gitdir"), filepath.Join(d.Admin, "commondir")},
		[]string{d.Admin}
}

// Dirs returns the folders of the linked worktree whose top is dir, as
// git itself resolves them (`git rev-parse --git-dir --git-common-dir`),
// or a sentence when dir is not a linked worktree.
func (g Git) Dirs(ctx context.Context, dir string) (WorktreeDirs, error) {
	out, err := g.Run(ctx, dir, "rev-parse", "--git-dir", "--git-common-dir")
	if err != nil {
		return WorktreeDirs{}, err
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return WorktreeDirs{}, fmt.Errorf("git rev-parse in %s printed %q, not two folders", dir, out)
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p) // older gits print the common folder relative to dir
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real
		}
		return filepath.Clean(p)
	}
	d := WorktreeDirs{Admin: abs(lines[0]), Common: abs(lines[1]), Link: filepath.Join(dir, ".git")}
	if d.Admin == d.Common || !strings.HasPrefix(d.Admin, d.Common+string(filepath.Separator)) {
		return WorktreeDirs{}, fmt.Errorf("%s is not a linked worktree of a repository (its git folder is %s)", dir, d.Admin)
	}
	return d, nil
}
