package service

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"pilot/backend/hostexec"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// Projects are the folders Pilot opened.
type Projects struct{ *core }

// List returns known projects, most recently opened first.
func (pr *Projects) List(ctx context.Context) ([]wire.Project, error) {
	ps, err := pr.store.Projects.List(ctx)
	return views(ps, err, present.Project)
}

// Open remembers the folder at path and returns it. The path must
// be an existing folder.
func (pr *Projects) Open(ctx context.Context, path string) (wire.Project, error) {
	return pr.open(ctx, path, true)
}

// open opens the folder; its MCP servers start now if startMCP,
// else when the window is ready (WindowReady).
func (pr *Projects) open(ctx context.Context, path string, startMCP bool) (wire.Project, error) {
	p, err := pr.touch(ctx, path)
	if err != nil {
		return wire.Project{}, err
	}
	hostexec.Distrust(p.Path)
	pr.mu.Lock()
	prev := pr.projectDir
	pr.projectDir = p.Path
	pr.mu.Unlock()
	if startMCP {
		pr.svc.MCP.open(prev, p.Path)
	}
	return present.Project(p), nil
}

func (c *core) project(ctx context.Context, id int64) (store.Project, error) {
	p, err := c.store.Projects.Get(ctx, id)
	if err != nil {
		return store.Project{}, fmt.Errorf("project %d: %w", id, err)
	}
	return p, nil
}

// Find returns the project of the folder dir without opening it:
// dir as given (made absolute) or, failing that, its link-free form (the
// form projects are opened by). It returns an error wrapping ErrNotFound
// when the folder was never opened in Pilot.
func (pr *Projects) Find(ctx context.Context, dir string) (wire.Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return wire.Project{}, err
	}
	p, err := pr.store.Projects.ByPath(ctx, abs)
	if resolved, rerr := filepath.EvalSymlinks(abs); errors.Is(err, store.ErrNotFound) && rerr == nil && resolved != abs {
		p, err = pr.store.Projects.ByPath(ctx, resolved)
	}
	if err != nil {
		return wire.Project{}, err
	}
	return present.Project(p), nil
}

// Add remembers the folder dir as opened, as the window opens it
// (absolute, links resolved, and it must be a folder), without making it
// the open project or starting its MCP servers.
func (pr *Projects) Add(ctx context.Context, dir string) (wire.Project, error) {
	p, err := pr.touch(ctx, dir)
	if err != nil {
		return wire.Project{}, err
	}
	return present.Project(p), nil
}

// touch remembers the folder at path (its ProjectPath) as opened now.
func (pr *Projects) touch(ctx context.Context, path string) (store.Project, error) {
	abs, err := ProjectPath(path)
	if err != nil {
		return store.Project{}, err
	}
	return pr.store.Projects.Touch(ctx, abs)
}
