package projectroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// explain follows p component by component like the kernel, only to word
// a refusal the root already made: `..` goes to the parent of what has been
// resolved so far (symbolic links already followed), and a symbolic link is
// replaced by its target. Components below the first missing one are taken
// literally. via names the first link that was followed. It never decides
// access: a race can make its answer differ from what the root saw.
func (r *Root) explain(p string) (abs, via string, err error) {
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
