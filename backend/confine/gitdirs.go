package confine

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
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
// and remembers the ones Pilot made (or found empty): the last pod to end
// removes those.
var placeholders = struct {
	sync.Mutex
	users map[string]int
	made  map[string]bool
}{users: map[string]int{}, made: map[string]bool{}}

// holdPlaceholder makes the placeholder folder when absent (an empty one
// found there counts as made: a pod that ended without removing it left
// it) and counts one more pod using it. A project its user cannot write
// gets none (held false): a command cannot make a .git there either.
func holdPlaceholder(path string) (held bool, err error) {
	if path == "" {
		return false, nil
	}
	placeholders.Lock()
	defer placeholders.Unlock()
	if placeholders.users[path] == 0 {
		err := os.Mkdir(path, 0o755)
		switch {
		case err == nil, errors.Is(err, fs.ErrExist) && emptyDir(path):
			placeholders.made[path] = true
		case errors.Is(err, fs.ErrExist):
		case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
			return false, nil
		default:
			return false, err
		}
	}
	placeholders.users[path]++
	return true, nil
}

// releasePlaceholder counts one pod less using the placeholder; the last
// removes it if Pilot made it and it is still an empty folder (rmdir
// never removes a file, nor a folder with something in it).
func releasePlaceholder(path string) {
	if path == "" {
		return
	}
	placeholders.Lock()
	defer placeholders.Unlock()
	if placeholders.users[path]--; placeholders.users[path] > 0 {
		return
	}
	delete(placeholders.users, path)
	if placeholders.made[path] {
		delete(placeholders.made, path)
		_ = syscall.Rmdir(path)
	}
}

// emptyDir reports whether path is a folder with nothing in it.
func emptyDir(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
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
