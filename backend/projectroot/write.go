package projectroot

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// tempPrefix is how the temporary file WriteAtomic writes next to the file
// base starts (a random part and ".tmp" follow): a crash can leave one
// behind, and RemoveTemps cleans them up.
func tempPrefix(base string) string {
	if len(base) > 100 {
		base = base[:100]
	}
	return "." + base + ".pilot-"
}

// splitRel splits a clean relative path into its folder ("." for the root)
// and its name.
func splitRel(rel string) (dir, base string) {
	dir, base = path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	return dir, base
}

// inFolder opens the folder of rel (clean, relative) through the root for
// a change and calls do with it (sub), the folder as a file (self) and
// rel's name in it: the *os.Root keeps every step in that very folder,
// and the folder, as the kernel places it, must not be inside .git.
func (r *Root) inFolder(rel string, do func(sub *os.Root, self *os.File, base string) error) error {
	dir, base := splitRel(rel)
	sub, err := r.root.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer sub.Close()
	self, err := sub.Open(".")
	if err != nil {
		return err
	}
	defer self.Close()
	if err := notGit(dir, r.Locate(self, r.at(dir)).Rel); err != nil {
		return err
	}
	return do(sub, self, base)
}

// RemoveTemps removes the temporary files a crash during WriteAtomic(rel)
// may have left next to rel.
func (r *Root) RemoveTemps(rel string) {
	_ = r.inFolder(rel, func(sub *os.Root, self *os.File, base string) error {
		ents, _ := self.ReadDir(-1)
		prefix := tempPrefix(base)
		for _, e := range ents {
			if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".tmp") && e.Type().IsRegular() {
				_ = sub.Remove(n)
			}
		}
		return nil
	})
}

// MkdirAll creates the folder rel (clean, relative) and its missing parents
// through the root, returning the folders it created, outermost first.
func (r *Root) MkdirAll(rel string) ([]string, error) {
	if rel == "." || rel == "" {
		return nil, nil
	}
	var created []string
	cur := ""
	for _, c := range strings.Split(rel, "/") {
		cur = path.Join(cur, c)
		err := r.root.Mkdir(cur, 0o755)
		switch {
		case err == nil:
			created = append(created, cur)
		case errors.Is(err, fs.ErrExist):
		default:
			return created, r.refusal(cur, cur, err)
		}
	}
	return created, nil
}

// Remove removes the file or empty folder rel through the root.
func (r *Root) Remove(rel string) error { return r.root.Remove(rel) }

// WriteAtomic replaces the file rel (clean, relative; see ResolveWrite)
// with data: in its folder, opened once through the root, a temporary file
// is written, given mode, synced and renamed over the name, and the folder
// is synced, so a crash leaves either the old or the new file. A link at
// rel is replaced, not followed.
func (r *Root) WriteAtomic(rel string, data []byte, mode fs.FileMode) error {
	return r.inFolder(rel, func(sub *os.Root, self *os.File, base string) error {
		if err := ReplaceFile(sub, base, data, mode, false); err != nil {
			return err
		}
		_ = self.Sync()
		return nil
	})
}

// ReplaceFile replaces the file name in the folder dir with data: a
// temporary file is written next to it (see RemoveTemps), given mode and
// renamed over name, so name never holds a partial write and a link at
// name is replaced, not followed. The file is synced before the rename;
// the caller syncs the folder when a crash must leave the old or the new
// file (WriteAtomic does), or leaves both unsynced with lazy, when a torn
// file is detected where it is read (the ledger's objects).
func ReplaceFile(dir *os.Root, name string, data []byte, mode fs.FileMode, lazy bool) (err error) {
	f, tmp, err := createTemp(dir, name)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			dir.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode.Perm()); err != nil {
		return err
	}
	if !lazy {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	return dir.Rename(tmp, name)
}

// createTemp creates a new temporary file for base in the folder sub.
func createTemp(sub *os.Root, base string) (*os.File, string, error) {
	for range 100 {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		name := tempPrefix(base) + hex.EncodeToString(b) + ".tmp"
		f, err := sub.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", fmt.Errorf("sandbox: no free temporary name for %s", base)
}

// SymlinkAtomic makes rel a symbolic link to target, replacing whatever
// file or link was there in one rename inside its folder.
func (r *Root) SymlinkAtomic(target, rel string) error {
	return r.inFolder(rel, func(sub *os.Root, _ *os.File, base string) error {
		f, tmp, err := createTemp(sub, base)
		if err != nil {
			return err
		}
		f.Close()
		if err := sub.Remove(tmp); err != nil {
			return err
		}
		if err := sub.Symlink(target, tmp); err != nil {
			return err
		}
		if err := sub.Rename(tmp, base); err != nil {
			sub.Remove(tmp)
			return err
		}
		return nil
	})
}

// FileOnWay reports whether a folder on the way to rel (clean, relative)
// is a file, which is why opening rel failed. Windows gives the same error
// (ERROR_PATH_NOT_FOUND, which Go names both ENOTDIR and "not exist") for
// a missing folder and for a file in a folder's place, so the folders are
// looked at through the root, one by one, up to the first missing one.
func FileOnWay(r *Root, rel string) bool {
	dir, _ := splitRel(rel)
	if dir == "." {
		return false
	}
	cur := ""
	for _, c := range strings.Split(dir, "/") {
		cur = path.Join(cur, c)
		fi, err := r.root.Stat(cur)
		if err != nil {
			return false
		}
		if !fi.IsDir() {
			return true
		}
	}
	return false
}
