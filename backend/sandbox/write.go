package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix is how the temporary file WriteAtomic writes next to abs
// starts (a random part and ".tmp" follow): a crash can leave one behind,
// and RemoveTemps cleans them up.
func tempPrefix(abs string) string {
	base := filepath.Base(abs)
	if len(base) > 100 {
		base = base[:100]
	}
	return "." + base + ".pilot-"
}

// RemoveTemps removes the temporary files a crash during WriteAtomic(abs)
// may have left next to abs.
func RemoveTemps(abs string) {
	dir := filepath.Dir(abs)
	ents, _ := os.ReadDir(dir)
	prefix := tempPrefix(abs)
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ".tmp") && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}

// MkdirAll creates dir and its missing parents, returning the folders it
// created, outermost first.
func MkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append(missing, d)
	}
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return created, err
		}
		created = append(created, missing[i])
	}
	return created, nil
}

// WriteAtomic replaces the file at abs with data: a temporary file in the
// same folder is written, given mode, synced and renamed over abs, and the
// folder is synced, so a crash leaves either the old or the new file.
func WriteAtomic(abs string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(abs)
	f, err := os.CreateTemp(dir, tempPrefix(abs)+"*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode.Perm()); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, abs); err != nil {
		return err
	}
	if df, derr := os.Open(dir); derr == nil {
		_ = df.Sync()
		df.Close()
	}
	return nil
}

// SymlinkAtomic makes abs a symbolic link to target, replacing whatever
// file or link was there in one rename.
func SymlinkAtomic(target, abs string) error {
	f, err := os.CreateTemp(filepath.Dir(abs), tempPrefix(abs)+"*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	if err := os.Remove(tmp); err != nil {
		return err
	}
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
