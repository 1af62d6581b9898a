package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pilot/backend/git"
	"pilot/backend/mcp"
	"pilot/backend/paths"
	"pilot/backend/present"
	"pilot/backend/settingsjson"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Worktrees are the sessions that work in a worktree of their own.
type Worktrees struct{ *core }

// Worktree sessions (issue 25). A worktree session works in its own git
// worktree, made by the user's git (`git worktree add -b pilot/NAME`) from
// the project's HEAD, under PILOT_HOME/worktrees/<project id>/<NAME>: never
// inside the user's tree, and nothing written in their .git beyond what
// git itself records for a worktree and its branch. The session's row
// keeps the worktree (store.Worktree) and Session.Root answers with it, so
// the agent's tools, sandbox, MCP servers and the ledger work there.

// NewSession starts an empty session of the project in a new
// worktree NAME on the branch pilot/NAME, and makes it the active one. A
// bad or taken name, a folder that is not in a git repository (or one with
// no commit yet), and a missing or too old git are refused with a
// sentence that says what to do.
func (wt *Worktrees) NewSession(ctx context.Context, projectID int64, name string) (wire.SessionSummary, error) {
	if err := git.CheckName(name); err != nil {
		return wire.SessionSummary{}, err
	}
	return wt.svc.Sessions.Start(ctx, projectID, SessionStart{Worktree: name})
}

// gitWorktreeAdd is git worktree add; the benchmark wraps it to time
// what NewSession adds around it.
var gitWorktreeAdd = git.Git.AddWorktree

// add makes the worktree NAME of project p: checks the name, finds
// git and the repository, and runs git worktree add. The returned
// Worktree's Path is the project's folder inside the new worktree (its
// top when the project is the repository's top).
func (wt *Worktrees) add(ctx context.Context, p store.Project, name string) (store.Worktree, error) {
	if err := git.CheckName(name); err != nil {
		return store.Worktree{}, err
	}
	g, err := git.Find(ctx)
	if err != nil {
		return store.Worktree{}, err
	}
	top, err := g.Toplevel(ctx, p.Path)
	if err != nil {
		return store.Worktree{}, err
	}
	base, err := g.Head(ctx, top)
	if err != nil {
		return store.Worktree{}, err
	}
	dir := paths.Worktree(wt.home, p.ID, name)
	branch := git.BranchPrefix + name
	if _, err := os.Lstat(dir); err == nil {
		return store.Worktree{}, fmt.Errorf("this project already has a worktree named %q (at %s): choose another name, or discard the session that works there (pilot worktree list shows them)", name, dir)
	}
	if taken, err := g.BranchExists(ctx, top, branch); err != nil {
		return store.Worktree{}, err
	} else if taken {
		return store.Worktree{}, fmt.Errorf("the branch %s already exists in %s: choose another name, or delete that branch (git branch -D %s) if it is no longer needed", branch, top, branch)
	}
	if err := gitWorktreeAdd(g, ctx, top, dir, branch, base); err != nil {
		return store.Worktree{}, fmt.Errorf("the worktree %q could not be made: %w", name, err)
	}
	root := dir
	if real, err := filepath.EvalSymlinks(p.Path); err == nil {
		if rel, err := filepath.Rel(top, real); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			root = filepath.Join(dir, rel)
		}
	}
	if _, err := mcp.TrustWorktree(wt.home, p.Path, root); err != nil {
		wt.log.Warn("the project's MCP trust was not extended to its worktree", "worktree", root, "err", err)
	}
	if err := settingsjson.TrustWorktree(wt.home, p.Path, root); err != nil {
		wt.log.Warn("the project's settings trust was not extended to its worktree", "worktree", root, "err", err)
	}
	return store.Worktree{Path: root, Branch: branch, Base: base}, nil
}

// top is the top folder of the session's worktree (its Path is the
// project's folder inside it).
func (wt *Worktrees) top(s store.Session) string {
	return paths.Worktree(wt.home, s.ProjectID, strings.TrimPrefix(s.Worktree.Branch, git.BranchPrefix))
}

// remove removes the session's worktree (with its uncommitted
// changes) and its branch, and stops the MCP servers that ran there.
func (wt *Worktrees) remove(ctx context.Context, s store.Session) error {
	if s.Worktree.Path == "" || s.Worktree.Discarded {
		return nil
	}
	p, err := wt.store.Projects.Get(ctx, s.ProjectID)
	if err != nil {
		return err
	}
	g, err := git.Find(ctx)
	if err != nil {
		return err
	}
	wt.mcp.CloseProject(s.Worktree.Path)
	wt.langs.closeRoot(s.Root(p.Path))
	if err := mcp.Forget(wt.home, s.Worktree.Path); err != nil {
		wt.log.Warn("the worktree's MCP trust was not forgotten", "worktree", s.Worktree.Path, "err", err)
	}
	if err := settingsjson.Forget(wt.home, s.Worktree.Path); err != nil {
		wt.log.Warn("the worktree's settings trust was not forgotten", "worktree", s.Worktree.Path, "err", err)
	}
	top := wt.top(s)
	if err := g.RemoveWorktree(ctx, p.Path, top); err != nil {
		return fmt.Errorf("the worktree at %s could not be removed: %w", top, err)
	}
	if err := g.DeleteBranch(ctx, p.Path, s.Worktree.Branch); err != nil {
		return fmt.Errorf("the worktree at %s was removed but its branch %s was not: %w", top, s.Worktree.Branch, err)
	}
	return nil
}

// Discard removes a worktree session's worktree (everything in it,
// committed on its branch or not) and its branch. A running turn is
// stopped first. The session stays as history, marked discarded, and runs
// no more turns.
func (wt *Worktrees) Discard(ctx context.Context, sessionID int64) error {
	if err := wt.waitStarted(ctx); err != nil {
		return err
	}
	s, err := wt.store.Sessions.Get(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("session %d: %w", sessionID, ErrNoSession)
	}
	if err != nil {
		return err
	}
	switch {
	case s.Worktree.Path == "":
		return fmt.Errorf("session %d works in the project folder, not in a worktree: there is nothing to discard", sessionID)
	case s.Worktree.Discarded:
		return fmt.Errorf("the worktree of session %d (branch %s) was already discarded", sessionID, s.Worktree.Branch)
	}
	sharing, err := wt.sharing(ctx, s)
	if err != nil {
		return err
	}
	for _, id := range append(sharing, sessionID) {
		wt.agent.Release(id)
	}
	if err := wt.remove(ctx, s); err != nil {
		return err
	}
	// Its forks worked in the same worktree: they are history now too.
	for _, id := range append(sharing, sessionID) {
		if err := wt.store.Sessions.MarkWorktreeDiscarded(ctx, id); err != nil {
			return err
		}
		wt.svc.Sessions.updated(ctx, id)
	}
	return nil
}

// sharing returns the other sessions that work in s's worktree
// (its forks, or the session it was forked from), not discarded.
func (wt *Worktrees) sharing(ctx context.Context, s store.Session) ([]int64, error) {
	all, err := wt.store.Sessions.List(ctx, s.ProjectID, 0, 0)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, o := range all {
		if o.ID != s.ID && !o.Worktree.Discarded && o.Worktree.Path == s.Worktree.Path && s.Worktree.Path != "" {
			ids = append(ids, o.ID)
		}
	}
	return ids, nil
}

// Sessions lists the project's worktree sessions, discarded ones
// included, the most recently updated first.
func (wt *Worktrees) Sessions(ctx context.Context, projectID int64) ([]wire.SessionSummary, error) {
	if err := wt.waitStarted(ctx); err != nil {
		return nil, err
	}
	ss, err := wt.store.Sessions.List(ctx, projectID, 0, 0)
	if err != nil {
		return nil, err
	}
	out := []wire.SessionSummary{}
	for _, s := range ss {
		if s.Worktree.Path != "" {
			out = append(out, present.Session(s))
		}
	}
	return out, nil
}

// Of returns a worktree session's summary; a session in the
// project folder, or no session, is refused with a sentence.
func (wt *Worktrees) Of(ctx context.Context, sessionID int64) (wire.SessionSummary, error) {
	if err := wt.waitStarted(ctx); err != nil {
		return wire.SessionSummary{}, err
	}
	s, err := wt.store.Sessions.Get(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return wire.SessionSummary{}, fmt.Errorf("there is no session %d: pilot worktree list shows a project's worktree sessions", sessionID)
	}
	if err != nil {
		return wire.SessionSummary{}, err
	}
	if s.Worktree.Path == "" {
		return wire.SessionSummary{}, fmt.Errorf("session %d works in the project folder, not in a worktree: pilot worktree list shows the worktree sessions", sessionID)
	}
	return present.Session(s), nil
}
