//go:build !linux

package projectroot

import (
	"io/fs"
	"os"
	"syscall"
)

// dirHandle is an open folder, as a root of its own.
type dirHandle = *os.Root

func (r *Root) openFolder(rel string) (dirHandle, error) { return r.root.OpenRoot(rel) }

func openChild(parent dirHandle, name string) (dirHandle, error) {
	fi, err := parent.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, syscall.ENOTDIR
	}
	return parent.OpenRoot(name)
}

func closeFolder(h dirHandle) { h.Close() }

func openFileFd(dir dirHandle, name string) (int, error) {
	fi, err := dir.Lstat(name)
	if err != nil {
		return -1, err
	}
	if !fi.Mode().IsRegular() {
		return -1, syscall.EINVAL
	}
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	return dupFile(f)
}

func readlinkAt(dir dirHandle, name string) (string, error) { return dir.Readlink(name) }

func lstatAt(dir dirHandle, name string) (fs.FileInfo, error) { return dir.Lstat(name) }

// readFolder reads an open folder's entries.
func readFolder(h dirHandle) ([]fs.DirEntry, error) {
	f, err := h.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = &dirent{dir: h, DirEntry: e}
	}
	return out, err
}

type dirent struct {
	dir dirHandle
	fs.DirEntry
}

func (d *dirent) Info() (fs.FileInfo, error) { return d.dir.Lstat(d.Name()) }
