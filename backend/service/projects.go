package service

import (
	"context"
	"fmt"

	"pilot/backend/hostexec"
	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// ListProjects returns known projects, most recently opened first.
func (w *Service) ListProjects(ctx context.Context) ([]wire.Project, error) {
	ps, err := w.store.Projects.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Project, len(ps))
	for i, p := range ps {
		out[i] = present.Project(p)
	}
	return out, nil
}

// OpenProject remembers the folder at path and returns it. The path must
// be an existing folder.
func (w *Service) OpenProject(ctx context.Context, path string) (wire.Project, error) {
	return w.openProject(ctx, path, true)
}

// openProject opens the folder; its MCP servers start now if startMCP,
// else when the window is ready (WindowReady).
func (w *Service) openProject(ctx context.Context, path string, startMCP bool) (wire.Project, error) {
	abs, err := ProjectPath(path)
	if err != nil {
		return wire.Project{}, err
	}
	p, err := w.store.Projects.Touch(ctx, abs)
	if err != nil {
		return wire.Project{}, err
	}
	hostexec.Distrust(p.Path)
	w.mu.Lock()
	prev := w.projectDir
	w.projectDir = p.Path
	w.mu.Unlock()
	if startMCP {
		w.openMCP(prev, p.Path)
	}
	return present.Project(p), nil
}

func (w *Service) project(ctx context.Context, id int64) (store.Project, error) {
	p, err := w.store.Projects.Get(ctx, id)
	if err != nil {
		return store.Project{}, fmt.Errorf("project %d: %w", id, err)
	}
	return p, nil
}
