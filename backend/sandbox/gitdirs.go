package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"pilot/backend/flock"
	"pilot/backend/folder"
)

// GitPaths are the git folders of a session's repository, read-only to
// its commands as in Codex's workspace-write: a command reads the
// repository (status, diff, log) but writes none of it, so it can plant
// no configuration, hook or attribute, register no nested repository, and
// rewrite no history without the user's yes (a command run with
// sandbox: false).
type GitPaths struct {
	// ReadOnly are bound read-only like Policy.ReadOnly: the project's
	// .git (a folder, or a gitfile), the git folder and common folder it
	// leads to, and the .git of the submodules registered in the index.
	ReadOnly []string
	// Placeholder is <project>/.git when the project has none: the pod
	// binds an empty read-only folder there so that a command's `git
	// init` in the project fails. A bind needs a folder to mount on, so
	// it is made on the host too (git there takes an empty .git for no
	// repository and looks above it, as without one), and removed when
	// the last pod using it ends, if still empty. Something that appeared
	// there meanwhile (the user's own `git init`) is bound read-only as it
	// is, and kept.
	Placeholder string
	// Note is the sentence Explain gives when a command was refused a
	// write beneath one of them, or a git command a write it names no
	// path for (git's "unable to create temporary file").
	Note string
}

// placeholders counts the pods of this process using each placeholder,
// and remembers the ones Pilot made (or found empty). Across processes
// (two Pilots on one folder), each pod also holds a shared flock(2) on
// the project folder while it uses the placeholder: the last pod of the
// last process is the one that gets it exclusively, and only that one
// removes the folder, while a pod starting meanwhile waits for the
// removal to be over and makes it again. (Without the lock, one process
// removed the placeholder a pod of the other was about to bind, and that
// command could not start.)
var placeholders = struct {
	sync.Mutex
	users map[string]int
	made  map[string]bool
}{users: map[string]int{}, made: map[string]bool{}}

// placeholderHold is one pod's use of a placeholder.
type placeholderHold struct {
	path   string
	folder *os.File // the project folder, flocked shared; nil when it cannot be
}

// holdPlaceholder makes the placeholder folder when absent (an empty one
// found there counts as made: a pod that ended without removing it left
// it) and counts one more pod using it. A project its user cannot write
// gets none (nil): a command cannot make a .git there either.
func holdPlaceholder(path string) (*placeholderHold, error) {
	if path == "" {
		return nil, nil
	}
	h := &placeholderHold{path: path}
	if f, err := os.Open(filepath.Dir(path)); err == nil {
		// A file system without flock (some network ones) leaves this
		// process's count alone to decide.
		if flock.Lock(f, flock.Shared, true) == nil {
			h.folder = f
		} else {
			f.Close()
		}
	}
	placeholders.Lock()
	defer placeholders.Unlock()
	if placeholders.users[path] == 0 {
		err := os.Mkdir(path, 0o755)
		switch {
		case err == nil, errors.Is(err, fs.ErrExist) && folder.Empty(path):
			placeholders.made[path] = true
		case errors.Is(err, fs.ErrExist):
		case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
			h.close()
			return nil, nil
		default:
			h.close()
			return nil, err
		}
	}
	placeholders.users[path]++
	return h, nil
}

// release counts one pod less using the placeholder; the last one of the
// last process removes it if Pilot made it and it is still an empty folder
// (rmdir never removes a file, nor a folder with something in it).
func (h *placeholderHold) release() {
	if h == nil {
		return
	}
	defer h.close()
	placeholders.Lock()
	defer placeholders.Unlock()
	if placeholders.users[h.path]--; placeholders.users[h.path] > 0 {
		return
	}
	delete(placeholders.users, h.path)
	if !placeholders.made[h.path] {
		return
	}
	delete(placeholders.made, h.path)
	if h.folder != nil {
		err := flock.Lock(h.folder, flock.Exclusive, false)
		if errors.Is(err, flock.ErrBusy) {
			return // another process's pod uses it: that one removes it
		}
	}
	_ = syscall.Rmdir(h.path)
}

func (h *placeholderHold) close() {
	if h.folder != nil {
		h.folder.Close() // lets go of the lock
		h.folder = nil
	}
}

// gitPaths are the real paths of Git.ReadOnly and the placeholder that
// exist, kept as readOnlyPaths keeps Policy.ReadOnly.
func gitPaths(p Policy) []string {
	list := p.Git.ReadOnly
	if p.Git.Placeholder != "" {
		list = append(append([]string{}, list...), p.Git.Placeholder)
	}
	return keepReadOnly(p, list)
}

// gitIn reports whether a line refusing a write names a path beneath a
// git folder (a relative one is taken from the project, where commands
// start), or names no absolute path at all in the output of a git
// command (git's "unable to create temporary file").
func gitIn(p Policy, line, command string, git []string) bool {
	if m := relROFS.FindStringSubmatch(line); m != nil && p.Project != "" && within(filepath.Join(p.Project, m[1]+m[2]), git) {
		return true
	}
	ps := paths(line)
	if len(ps) == 0 {
		return len(git) > 0 && gitVerb.MatchString(command)
	}
	for _, path := range ps {
		if within(path, git) {
			return true
		}
	}
	return false
}

// within reports whether path is one of list or lies inside one.
func within(path string, list []string) bool {
	for _, x := range list {
		if under(path, x) {
			return true
		}
	}
	return false
}
