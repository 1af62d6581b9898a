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

// WorktreeDirs are where git keeps a linked worktree's repository: what a
// sandboxed command in the worktree reads and writes when it runs git.
type WorktreeDirs struct {
	Common string // the repository's .git: objects, refs, config, hooks (shared with the user's tree)
	Admin  string // the worktree's own folder, Common/worktrees/NAME: its HEAD, index and logs
	Link   string // the worktree's .git file, which points at Admin
}

// SandboxPaths are the paths a command sandbox binds for git in the
// worktree: the repository's common folder read-only, the worktree's own
// folder writable (its index, logs, ORIG_HEAD), and, read-only over that,
// the files Pilot's own git outside the sandbox trusts: the worktree's
// .git file, Admin's gitdir and commondir (a command could point the
// worktree at another repository), HEAD (pointed at refs/heads/main, the
// Branch view's commit would land on the user's branch) and
// config.worktree (with extensions.worktreeConfig, configuration such as
// core.hooksPath that git outside would obey). A path that does not
// exist is not bound: call PrepareSandbox first.
func (d WorktreeDirs) SandboxPaths() (readOnly, writable []string) {
	ro := []string{d.Common, d.Link}
	for _, name := range adminFixed {
		ro = append(ro, filepath.Join(d.Admin, name))
	}
	return ro, []string{d.Admin}
}

// adminFixed are the files of a worktree's own folder a sandboxed command
// may not change.
var adminFixed = []string{"gitdir", "commondir", "HEAD", "config.worktree"}

// PrepareSandbox makes config.worktree exist (empty, which git reads as
// no setting) so that SandboxPaths can bind it read-only: absent, a
// command could create it.
func (d WorktreeDirs) PrepareSandbox() error {
	f, err := os.OpenFile(filepath.Join(d.Admin, "config.worktree"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
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
