package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Project is a folder the user opened.
type Project struct {
	ID         int64     `json:"id"`
	Path       string    `json:"path"` // absolute, cleaned
	Name       string    `json:"name"` // the folder's base name
	CreatedAt  time.Time `json:"createdAt"`
	LastOpened time.Time `json:"lastOpened"`
}

const projectCols = `id, path, name, created_at, last_opened`

func scanProject(row rowScanner) (Project, error) {
	var p Project
	var created, opened int64
	if err := row.Scan(&p.ID, &p.Path, &p.Name, &created, &opened); err != nil {
		return Project{}, err
	}
	p.CreatedAt, p.LastOpened = fromMillis(created), fromMillis(opened)
	return p, nil
}

// cleanProjectPath checks that dir is absolute and cleans it.
func cleanProjectPath(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%w: project path %q is not absolute", ErrInvalid, dir)
	}
	return filepath.Clean(dir), nil
}

// Touch records that the project at the absolute path dir was
// opened now, creating it on first use.
func (s *Projects) Touch(ctx context.Context, dir string) (Project, error) {
	dir, err := cleanProjectPath(dir)
	if err != nil {
		return Project{}, err
	}
	now := millis(s.now())
	var p Project
	err = s.write(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			INSERT INTO projects (path, name, created_at, last_opened) VALUES (?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET last_opened = excluded.last_opened
			RETURNING `+projectCols,
			dir, filepath.Base(dir), now, now)
		var err error
		p, err = scanProject(row)
		return err
	})
	return p, err
}

// List lists every project, the most recently opened first.
func (s *Projects) List(ctx context.Context) ([]Project, error) {
	return queryAll(ctx, s.r, scanProject, `SELECT `+projectCols+` FROM projects ORDER BY last_opened DESC, id DESC`)
}

// Get returns the project with that id.
func (s *Projects) Get(ctx context.Context, id int64) (Project, error) {
	return s.projectWhere(ctx, `id = ?`, id)
}

// ByPath returns the project at the absolute path dir without
// touching it; ErrNotFound if it was never opened.
func (s *Projects) ByPath(ctx context.Context, dir string) (Project, error) {
	dir, err := cleanProjectPath(dir)
	if err != nil {
		return Project{}, err
	}
	return s.projectWhere(ctx, `path = ?`, dir)
}

func (s *Projects) projectWhere(ctx context.Context, where string, arg any) (Project, error) {
	p, err := scanProject(s.r.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return Project{}, fmt.Errorf("project %v: %w", arg, ErrNotFound)
	}
	return p, err
}

// Delete removes a project with its sessions (and everything under
// them) and its permission rules. The directory itself is not touched.
func (s *Projects) Delete(ctx context.Context, id int64) error {
	return s.execRow(ctx, "project", id, `DELETE FROM projects WHERE id = ?`)
}
