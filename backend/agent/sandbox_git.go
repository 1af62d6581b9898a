package agent

import (
	"context"
	"time"

	"pilot/backend/git"
	"pilot/backend/sandbox"
)

// folderGitNote is what the model is told when a command of a session in
// the project folder was refused a write in the repository
// (sandbox.Explain).
const folderGitNote = "The project's git repository (.git) is read-only to sandboxed commands: git status, diff, log, show and blame work, but add, commit, reset, checkout of another branch, stash, gc and git init cannot write it. When the user asked for it (a commit, a git init), run the git command again with sandbox: false and a reason: the user is asked first."

// worktreeGitNote is the same for a worktree session.
const worktreeGitNote = "The repository is read-only to commands of a worktree session, the worktree's own index included: git status, diff, log, show and blame work, but add, commit, reset, branch, tag and stash cannot write the user's repository, so leave the changes in the worktree; the user commits this session's branch from its Branch view (or merges it with `pilot worktree merge`). A git command the user asked for runs with sandbox: false and a reason: the user is asked first."

// sandboxGit gives the session's pod its git folders read-only
// (git.PodPaths) and the sentence the model gets when git hits them.
// Without a usable git on the machine, only the project's .git (or the
// placeholder where it has none) is known: commands still cannot write
// or make one.
func (p *pod) sandboxGit(policy *sandbox.Policy) {
	l := p.l
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := git.Find(ctx)
	if err != nil {
		l.m.log.Warn("git for the session's sandbox", "session", l.id, "err", err)
		g = git.Git{}
	}
	paths, err := g.PodPaths(ctx, l.root.Dir())
	if err != nil {
		l.m.log.Warn("git folders for the session's sandbox", "session", l.id, "err", err)
	}
	policy.Git = sandbox.GitPaths{ReadOnly: paths.ReadOnly, Placeholder: paths.Placeholder, Note: folderGitNote}
	if l.worktree {
		policy.Git.Note = worktreeGitNote
	}
}
