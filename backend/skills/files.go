package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"

	"pilot/backend/projectroot"
)

// Caps of what a skill's folder gives the model.
const (
	maxListed   = 200       // files listed beside SKILL.md
	MaxFileRead = 256 << 10 // bytes of one file returned
)

// File is a file of a skill's folder other than SKILL.md.
type File struct {
	Path string // '/'-separated, relative to the skill's folder
	Size int64
}

// Files lists the files of the skill's folder but SKILL.md, sorted, at
// most maxListed; more reports whether some were left out. Hidden files
// and folders are left out.
func (k Skill) Files() (list []File, more bool, err error) {
	root, err := k.openRoot()
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || p == "SKILL.md" {
			return nil
		}
		if len(list) >= maxListed {
			more = true
			return fs.SkipAll
		}
		var size int64
		if fi, err := d.Info(); err == nil {
			size = fi.Size()
		}
		list = append(list, File{Path: p, Size: size})
		return nil
	})
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	return list, more, err
}

// ErrOutside is matched by the error of a path that leaves the skill's
// folder.
var ErrOutside = errors.New("skills: the path leaves the skill's folder")

// openRoot opens the skill's folder as an os.Root: a project's skill's
// through the project's root, so the folder itself cannot be a link out
// of the project either.
func (k Skill) openRoot() (*os.Root, error) {
	if k.project == "" {
		return os.OpenRoot(k.Dir)
	}
	r, err := projectroot.New(k.project)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenOwnRoot(k.rel)
}

// ReadFile reads the file rel ('/'-separated, relative to the skill's
// folder) through an os.Root of the folder, so neither ".." nor a symbolic
// link can reach outside it; only a regular file is read, never waiting. It returns at most MaxFileRead bytes; cut
// reports a longer file. A binary file is an error.
func (k Skill) ReadFile(rel string) (text string, cut bool, err error) {
	clean := path.Clean(strings.TrimPrefix(rel, "./"))
	if !fs.ValidPath(clean) || clean == "." {
		return "", false, fmt.Errorf("%w: %q", ErrOutside, rel)
	}
	root, err := k.openRoot()
	if err != nil {
		return "", false, err
	}
	defer root.Close()
	// Never waiting: a FIFO or a device would block the open or the read.
	f, err := root.OpenFile(clean, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		// A symbolic link out of the folder is refused by the os.Root.
		return "", false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	if fi.IsDir() {
		return "", false, fmt.Errorf("%s is a folder of the skill, not a file", clean)
	}
	if !fi.Mode().IsRegular() {
		return "", false, fmt.Errorf("%s is not a regular file (a named pipe or a device): it cannot be read", clean)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileRead+1))
	if err != nil {
		return "", false, err
	}
	if bytes.IndexByte(b[:min(len(b), 8<<10)], 0) >= 0 {
		return "", false, fmt.Errorf("%s is a binary file (%d bytes): it cannot be shown as text", clean, fi.Size())
	}
	if len(b) > MaxFileRead {
		return string(b[:MaxFileRead]), true, nil
	}
	return string(b), false, nil
}
