package service

import (
	"context"
	"fmt"

	"pilot/backend/projectroot"
)

// The window's file tree, @ picker, file previews and git badge show the
// folder the open session works in: its worktree for a worktree session,
// else the project folder (sessionID 0: no session open). The project's
// root is kept (projectRoot); a worktree's is opened for each call and
// closed after it (a few system calls), so that a discarded worktree
// leaves no open folder behind.

// viewRoot is the sandbox root of the folder the window shows for
// sessionID in projectID, and a func to call when done with it. A session
// of another project is refused, and so is one whose worktree was
// discarded (its files are gone).
func (c *core) viewRoot(ctx context.Context, projectID, sessionID int64) (*projectroot.Root, func(), error) {
	dir, err := c.worktreeOf(ctx, projectID, sessionID)
	if err != nil {
		return nil, nil, err
	}
	if dir == "" {
		pr, err := c.svc.Turns.projectRoot(ctx, projectID)
		if err != nil {
			return nil, nil, err
		}
		return pr.root, func() {}, nil
	}
	root, err := projectroot.New(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("session %d's worktree %s cannot be opened (%w): discard the session's worktree from its Branch view or with pilot worktree discard", sessionID, dir, err)
	}
	return root, func() { root.Close() }, nil
}

// viewPath is the folder viewRoot opens, as a path.
func (c *core) viewPath(ctx context.Context, projectID, sessionID int64) (string, error) {
	dir, err := c.worktreeOf(ctx, projectID, sessionID)
	if err != nil || dir != "" {
		return dir, err
	}
	p, err := c.project(ctx, projectID)
	if err != nil {
		return "", err
	}
	return p.Path, nil
}

// worktreeOf is the worktree sessionID works in, "" for a session in the
// project folder or none (0).
func (c *core) worktreeOf(ctx context.Context, projectID, sessionID int64) (string, error) {
	if sessionID == 0 {
		return "", nil
	}
	s, err := c.store.Sessions.Get(ctx, sessionID)
	if err != nil {
		return "", fmt.Errorf("session %d: %w", sessionID, err)
	}
	if s.ProjectID != projectID {
		return "", fmt.Errorf("session %d belongs to another project than project %d: open its project to see its files", sessionID, projectID)
	}
	if s.Worktree.Discarded {
		return "", fmt.Errorf("session %d's worktree and its branch %s were discarded, so its files are gone: the session stays as history", sessionID, s.Worktree.Branch)
	}
	return s.Worktree.Path, nil
}
