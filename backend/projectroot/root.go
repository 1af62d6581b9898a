package projectroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Sentinel errors wrapped by *PathError; test with errors.Is.
var (
	ErrOutside    = errors.New("path is outside the project root")
	ErrGitDir     = errors.New("path is inside .git")
	ErrInvalid    = errors.New("invalid path")
	ErrNotRegular = errors.New("not a regular file")
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
	Err  error // ErrOutside, ErrGitDir, ErrInvalid or ErrNotRegular
}

func (e *PathError) Error() string { return e.Msg }
func (e *PathError) Unwrap() error { return e.Err }

// Root is a project folder, opened once as an *os.Root: every file and
// folder below it is opened through that root, so the standard library
// (component by component, with the kernel's O_NOFOLLOW opens relative to
// the folders already opened) keeps every open, links included, beneath
// it. Its methods are safe for concurrent use.
type Root struct {
	dir  string // absolute, clean, symbolic links resolved
	root *os.Root
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
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("sandbox: project folder: %w", err)
	}
	return &Root{dir: real, root: root}, nil
}

// Close releases the project folder. Calls after Close fail with
// os.ErrClosed; calls under way finish first.
func (r *Root) Close() error { return r.root.Close() }

// Dir returns the absolute project folder with symbolic links resolved.
func (r *Root) Dir() string { return r.dir }

// FS returns the *os.Root of the project folder, for code that opens files
// of the project itself (the ledger, the window).
func (r *Root) FS() *os.Root { return r.root }

// Path is a location inside the root.
type Path struct {
	// Abs is the absolute location, for messages and as an identity key:
	// never open it, open Rel through the root.
	Abs string
	Rel string // relative to the root, '/'-separated, clean; "." for the root itself
}

// Resolve checks p (relative to the root, or absolute inside it; "" means
// the root) and cleans it. It does not touch the disk: where the path's
// links lead is judged when it is opened through the root (OpenRead, ...),
// which refuses any way out.
func (r *Root) Resolve(p string) (Path, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q contains a NUL byte, which no file name can hold. Use a plain path relative to the project root %s, for example \"src/main.go\".", p, r.dir)}
	}
	if len(p) > maxPathLen {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path is %d bytes long; paths are limited to %d bytes. Use a shorter path relative to the project root %s.", len(p), maxPathLen, r.dir)}
	}
	for _, c := range strings.Split(p, "/") {
		if len(c) > maxNameLen {
			return Path{}, &PathError{Path: p, Err: ErrInvalid,
				Msg: fmt.Sprintf("The path %q has a component of %d bytes; file names are limited to %d bytes. Use a shorter path inside the project root %s.", p, len(c), maxNameLen, r.dir)}
		}
	}
	rel := p
	if filepath.IsAbs(p) {
		c := filepath.Clean(p)
		switch {
		case c == r.dir:
			rel = "."
		case r.contains(c):
			rel = strings.TrimPrefix(c[len(r.dir):], string(filepath.Separator))
		default:
			return Path{}, r.outside(p)
		}
	}
	rel = path.Clean("./" + filepath.ToSlash(rel))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return Path{}, r.outside(p)
	}
	return r.at(rel), nil
}

// at is the Path of a clean relative path.
func (r *Root) at(rel string) Path {
	if rel == "." {
		return Path{Abs: r.dir, Rel: "."}
	}
	return Path{Abs: joinName(r.dir, filepath.FromSlash(rel)), Rel: rel}
}

func (r *Root) outside(p string) error {
	return &PathError{Path: p, Err: ErrOutside,
		Msg: fmt.Sprintf("The path %q is outside the project root %s. Tools can only reach files inside the project root: use a path relative to it (for example \"src/main.go\"), or call list_files to see what is there.", p, r.dir)}
}

// Where is where p (relative to the root, or absolute inside it) really
// is, as the kernel reports it for the file or folder opened through the
// root: links inside the project followed. ok is false when p is outside
// the root or cannot be opened (missing, or a link leading out).
func (r *Root) Where(p string) (where Path, ok bool) {
	lp, err := r.Resolve(p)
	if err != nil {
		return Path{}, false
	}
	f, err := r.root.OpenFile(lp.Rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return lp, false
	}
	defer f.Close()
	return r.Locate(f, lp), true
}

// ResolveWrite is Resolve for a path that is about to be changed: it also
// refuses anything inside a .git folder (links to it included), the root
// itself and a path whose folder or link leads out of the root. The Path
// it returns is where the change will really land (a link at the end is
// followed), as the kernel reports it for the folder opened through the
// root.
func (r *Root) ResolveWrite(p string) (Path, error) {
	lp, err := r.Resolve(p)
	if err != nil {
		return Path{}, err
	}
	if lp.Rel == "." {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q is the project root %s itself, not a file. Give the path of a file inside it, for example \"notes.txt\".", p, r.dir)}
	}
	if err := notGit(p, lp.Rel); err != nil {
		return Path{}, err
	}
	where := lp
	fi, err := r.root.Lstat(lp.Rel)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		// A link at the end: the change lands where it leads.
		f, err := r.root.OpenFile(lp.Rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				target, _ := r.root.Readlink(lp.Rel)
				return Path{}, &PathError{Path: p, Err: ErrInvalid,
					Msg: fmt.Sprintf("%q is a symbolic link to %q, which does not exist. Write to the path you mean directly, inside the project root %s.", p, target, r.dir)}
			}
			return Path{}, r.refusal(p, lp.Rel, err)
		}
		where = r.Locate(f, lp)
		f.Close()
	case err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		// The folder it goes in: opened through the root, located by the kernel.
		dir, base := path.Split(lp.Rel)
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" {
			break
		}
		f, err := r.root.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				break // missing folders are created through the root
			}
			return Path{}, r.refusal(p, lp.Rel, err)
		}
		d := r.Locate(f, r.at(dir))
		f.Close()
		where = r.at(path.Join(d.Rel, base))
	default:
		return Path{}, r.refusal(p, lp.Rel, err)
	}
	if where.Rel == "." {
		return Path{}, &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q leads to the project root %s itself, not a file. Give the path of a file inside it.", p, r.dir)}
	}
	if err := notGit(p, where.Rel); err != nil {
		return Path{}, err
	}
	return where, nil
}

// notGit refuses a path inside .git (p as given, rel: where it resolved to
// in the project).
func notGit(p, rel string) error {
	for _, c := range strings.Split(rel, "/") {
		if strings.EqualFold(c, ".git") {
			return &PathError{Path: p, Err: ErrGitDir,
				Msg: fmt.Sprintf("The path %q is inside .git/ (git's own data, resolved to %s). File tools never change it; use run_bash with git commands (git commit, git config, ...) instead.", p, rel)}
		}
	}
	return nil
}

// refusal words an error the root gave when opening rel (p as given):
// a way out, a link loop or a file on the way become a *PathError for the
// model; a missing file stays an fs.ErrNotExist error. The root has
// already refused; the lexical walk in explain only finds which link
// led out, for the message.
func (r *Root) refusal(p, rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return err
	case errors.Is(err, syscall.ELOOP):
		return &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q goes through too many symbolic links (a link loop?). Use list_files to look at the links on the way.", p)}
	case errors.Is(err, syscall.ENOTDIR):
		return &PathError{Path: p, Err: ErrInvalid,
			Msg: fmt.Sprintf("The path %q cannot be followed: a folder on its way is a file. Call list_files to see what is there.", p)}
	case errors.Is(err, os.ErrClosed):
		return err
	case errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.EOPNOTSUPP):
		// A socket (or a device with nothing behind it) cannot be opened.
		if fi, serr := r.root.Stat(rel); serr == nil && !fi.Mode().IsRegular() {
			return NotRegular(p, fi.Mode())
		}
	}
	if abs, via, werr := r.explain(rel); werr == nil && !r.contains(abs) {
		if via != "" {
			return &PathError{Path: p, Err: ErrOutside,
				Msg: fmt.Sprintf("The path %q goes through the symbolic link %q, which leads to %s, outside the project root %s. Tools can only reach files inside the project root; use a path that stays inside it, or call list_files to see what is there.", p, via, abs, r.dir)}
		}
		return r.outside(p)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		if abs, via, werr := r.explain(rel); werr == nil && via != "" {
			to := abs
			if r.contains(abs) {
				to = r.at(strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(abs, r.dir)), "/")).Rel
			}
			return &PathError{Path: p, Err: ErrOutside,
				Msg: fmt.Sprintf("The path %q goes through the symbolic link %q, which names its target by an absolute path; the file tools follow links only where they stay inside the project root %s by a relative path. Use the path it leads to, %q, instead.", p, via, r.dir, to)}
		}
		return &PathError{Path: p, Err: ErrOutside,
			Msg: fmt.Sprintf("The path %q leads outside the project root %s through a symbolic link (one that changed while it was followed). Tools can only reach files inside the project root; use a path that stays inside it, or call list_files to see what is there.", p, r.dir)}
	}
	return fmt.Errorf("%s: %w", p, err)
}

// contains reports whether the clean absolute path abs is the root or below it.
func (r *Root) contains(abs string) bool {
	if abs == r.dir {
		return true
	}
	prefix := r.dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator) // not for "/" or `C:\`
	}
	return strings.HasPrefix(abs, prefix)
}
