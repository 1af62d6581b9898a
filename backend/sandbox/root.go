package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Sentinel errors wrapped by *PathError; test with errors.Is.
var (
	ErrOutside = errors.New("path is outside the project root")
	ErrGitDir  = errors.New("path is inside .git")
	ErrInvalid = errors.New("invalid path")
)

const (
	maxPathLen = 4096 // PATH_MAX on Linux
	maxNameLen = 255  // NAME_MAX on Linux
	maxLinks   = 40   // MAXSYMLINKS on Linux
)

// PathError is a path the model (or the user) gave that cannot be used. Its
// message is written for the model: what went wrong and what to do instead.
type PathError struct {
	Path string // the path as given
	Msg  string
	Err  error // ErrOutside, ErrGitDir or ErrInvalid
}

func (e *PathError) Error() string { return e.Msg }
func (e *PathError) Unwrap() error { return e.Err }

// Root is a project folder. Its methods are safe for concurrent use.
type Root struct {
	dir string // absolute, clean, symbolic links resolved
}

// New opens the project folder dir.
func New(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("sandbox: project folder: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("sandbox: project folder: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("sandbox: project folder %s is not a directory", abs)
	}
	return &Root{dir: real}, nil
}

// Dir returns the absolute project folder with symbolic links resolved.
func (r *Root) Dir() string { return r.dir }

// Path is a location inside the root.
type Path struct {
	Abs string // absolute, symbolic links resolved
	Rel string // relative to the root, '/'-separated; "." for the root itself
}

// Resolve maps p (relative to the root, or absolute inside it; "" means the
// root) to its real location. The target need not exist, but every existing
// component on the way is followed, symbolic links included.
func (r *Root) Resolve(p string) (Path, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q contains a NUL byte, which no file name can hold. Use a plain path relative to the project root %s, for example \"src/main.go\".", p, r.dir)}
	}
	if len(p) > maxPathLen {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path is %d bytes long; paths are limited to %d bytes. Use a shorter path relative to the project root %s.", len(p), maxPathLen, r.dir)}
	}
	abs, via, err := r.walk(p)
	if err != nil {
		return Path{}, err
	}
	if !r.contains(abs) {
		msg := fmt.Sprintf("The path %q is outside the project root %s. Tools can only reach files inside the project root: use a path relative to it (for example \"src/main.go\"), or call list_files to see what is there.", p, r.dir)
		if via != "" {
			msg = fmt.Sprintf("The path %q goes through the symbolic link %q, which leads to %s, outside the project root %s. Tools can only reach files inside the project root; use a path that stays inside it, or call list_files to see what is there.", p, via, abs, r.dir)
		}
		return Path{}, &PathError{Path: p, Err: ErrOutside, Msg: msg}
	}
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return Path{}, fmt.Errorf("sandbox: %w", err)
	}
	return Path{Abs: abs, Rel: filepath.ToSlash(rel)}, nil
}

// ResolveWrite is Resolve for a path that is about to be changed: it also
// refuses anything inside a .git folder, and the root itself.
func (r *Root) ResolveWrite(p string) (Path, error) {
	rp, err := r.Resolve(p)
	if err != nil {
		return Path{}, err
	}
	if rp.Rel == "." {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q is the project root %s itself, not a file. Give the path of a file inside it, for example \"notes.txt\".", p, r.dir)}
	}
	for _, c := range strings.Split(rp.Rel, "/") {
		if strings.EqualFold(c, ".git") {
			return Path{}, &PathError{Path: p, Err: ErrGitDir,
				Msg: fmt.Sprintf("The path %q is inside .git/ (git's own data, resolved to %s). File tools never change it; use run_bash with git commands (git commit, git config, ...) instead.", p, rp.Rel)}
		}
	}
	return rp, nil
}

// contains reports whether the clean absolute path abs is the root or below it.
func (r *Root) contains(abs string) bool {
	if abs == r.dir {
		return true
	}
	prefix := r.dir
	if prefix != "/" {
		prefix += "/"
	}
	return strings.HasPrefix(abs, prefix)
}

// walk resolves p component by component like the kernel: `..` goes to the
// parent of what has been resolved so far (symbolic links already followed),
// and a symbolic link is replaced by its target. Components below the first
// missing one are taken literally. via names the first link that was followed.
func (r *Root) walk(p string) (abs, via string, err error) {
	cur := r.dir
	if filepath.IsAbs(p) {
		cur = "/"
	}
	comps := strings.Split(p, "/")
	links := 0
	exists := true
	for len(comps) > 0 {
		c := comps[0]
		comps = comps[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		if len(c) > maxNameLen {
			return "", "", &PathError{Path: p, Err: ErrInvalid,
				Msg: fmt.Sprintf("The path %q has a component of %d bytes; file names are limited to %d bytes. Use a shorter path inside the project root %s.", p, len(c), maxNameLen, r.dir)}
		}
		next := filepath.Join(cur, c)
		if !exists {
			cur = next
			continue
		}
		fi, lerr := os.Lstat(next)
		if lerr != nil {
			if errors.Is(lerr, fs.ErrNotExist) || errors.Is(lerr, syscall.ENOTDIR) {
				exists = false
				cur = next
				continue
			}
			return "", "", &PathError{Path: p, Err: ErrInvalid,
				Msg: fmt.Sprintf("The path %q cannot be followed: %v. Check the path with list_files.", p, lerr)}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		links++
		if links > maxLinks {
			return "", "", &PathError{Path: p, Err: ErrInvalid,
				Msg: fmt.Sprintf("The path %q goes through more than %d symbolic links (a link loop?). Use list_files to look at the links on the way.", p, maxLinks)}
		}
		target, rerr := os.Readlink(next)
		if rerr != nil {
			return "", "", &PathError{Path: p, Err: ErrInvalid,
				Msg: fmt.Sprintf("The symbolic link %s cannot be read: %v.", next, rerr)}
		}
		if via == "" {
			if rel, e := filepath.Rel(r.dir, next); e == nil {
				via = filepath.ToSlash(rel)
			} else {
				via = next
			}
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		comps = append(strings.Split(target, "/"), comps...)
	}
	return cur, via, nil
}
