package mcp

import (
	"fmt"

	"pilot/backend/trustfile"
)

// Put adds or replaces a server in a scope's file (user: under home,
// project: the project's .mcp.json) and reports whether it replaced one.
// A project file the user had trusted (or that did not exist) stays
// trusted: the user wrote this change.
func Put(home, project, scope, name string, s Server) (bool, error) {
	if err := ValidName(name); err != nil {
		return false, err
	}
	if err := s.Validate(); err != nil {
		return false, err
	}
	var replaced bool
	err := edit(home, project, scope, func(f *File) error {
		_, replaced = f.Servers[name]
		f.Servers[name] = s
		return nil
	})
	return replaced, err
}

// Remove deletes a server from a scope's file.
func Remove(home, project, scope, name string) error {
	return edit(home, project, scope, func(f *File) error {
		if _, ok := f.Servers[name]; !ok {
			return fmt.Errorf("no MCP server called %q in the %s configuration", name, scope)
		}
		delete(f.Servers, name)
		return nil
	})
}

// SetDisabled turns a server off or on without removing it.
func SetDisabled(home, project, scope, name string, disabled bool) error {
	return edit(home, project, scope, func(f *File) error {
		s, ok := f.Servers[name]
		if !ok {
			return fmt.Errorf("no MCP server called %q in the %s configuration", name, scope)
		}
		s.Disabled = disabled
		f.Servers[name] = s
		return nil
	})
}

// ScopePath is the file of a scope.
func ScopePath(home, project, scope string) string {
	if scope == ScopeProject {
		return ProjectPath(project)
	}
	return UserPath(home)
}

func edit(home, project, scope string, change func(*File) error) error {
	if scope != ScopeUser && scope != ScopeProject {
		return fmt.Errorf("%w: scope %q: use user or project", ErrInvalid, scope)
	}
	if scope == ScopeProject && project == "" {
		return fmt.Errorf("%w: no project open for a project server", ErrInvalid)
	}
	f, raw, err := ReadScope(home, project, scope)
	if err != nil {
		return err
	}
	keep := false
	if scope == ScopeProject {
		keep = raw == nil
		if !keep {
			keep, _ = Trusted(home, project, trustfile.Hash(raw))
		}
	}
	if err := change(&f); err != nil {
		return err
	}
	if err := WriteScope(home, project, scope, f); err != nil {
		return err
	}
	if keep {
		_, raw, err := ReadProject(project)
		if err == nil {
			err = Trust(home, project, trustfile.Hash(raw))
		}
		if err != nil {
			return fmt.Errorf("saving the trust: %w", err)
		}
	}
	return nil
}
