package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// ListProjects returns known projects, most recently opened first.
func (w *Service) ListProjects(ctx context.Context) ([]wire.Project, error) {
	ps, err := w.store.Projects(ctx)
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
	abs, err := projectDir(path)
	if err != nil {
		return wire.Project{}, err
	}
	p, err := w.store.TouchProject(ctx, abs)
	if err != nil {
		return wire.Project{}, err
	}
	w.mu.Lock()
	prev := w.projectDir
	w.projectDir = p.Path
	w.mu.Unlock()
	if startMCP {
		w.openMCP(prev, p.Path)
	}
	return present.Project(p), nil
}

// projectDir checks that path names a folder and returns its absolute,
// link-free form.
func projectDir(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("no folder given: type the path of a project folder or pick one")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return "", fmt.Errorf("%s does not exist: check the path, or create the folder first", abs)
	case err != nil:
		return "", fmt.Errorf("cannot open %s: %w", abs, err)
	case !st.IsDir():
		return "", fmt.Errorf("%s is a file, not a folder: open the folder that holds it", abs)
	}
	return abs, nil
}

func (w *Service) project(ctx context.Context, id int64) (store.Project, error) {
	p, err := w.store.Project(ctx, id)
	if err != nil {
		return store.Project{}, fmt.Errorf("project %d: %w", id, err)
	}
	return p, nil
}
