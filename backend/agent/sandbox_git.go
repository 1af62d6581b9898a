package agent

import (
	"context"
	"time"

	"pilot/backend/gitwt"
)

// worktreeGitNote is what the model is told when a command of a worktree
// session was refused a write in the repository (confine.Explain).
const worktreeGitNote = "The repository is read-only to commands of a worktree session: git status, diff, log, show, blame and restore work, but add, commit, branch, tag and stash cannot write the user's repository, so leave the changes in the worktree; the user commits this session's branch from its Branch view (or merges it with `pilot worktree merge`)."

// worktreeGit returns the paths a worktree session's pod binds for git
// (gitwt.WorktreeDirs.SandboxPaths): the repository's common folder
// read-only, the worktree's own folder writable. When git or the
// worktree's folders cannot be found, none: commands still run, and git
// in them says it finds no repository.
func (l *live) worktreeGit() (readOnly, writable []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := gitwt.Find(ctx)
	if err != nil {
		l.m.log.Warn("git for a worktree session's sandbox", "session", l.id, "err", err)
		return nil, nil
	}
	d, err := g.Dirs(ctx, l.root.Dir())
	if err == nil {
		err = d.PrepareSandbox()
	}
	if err != nil {
		l.m.log.Warn("git for a worktree session's sandbox", "session", l.id, "err", err)
		return nil, nil
	}
	return d.SandboxPaths()
}
