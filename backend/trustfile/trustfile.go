// Package trustfile keeps what the user trusted, as the sha256 of the
// content they were shown, in one small JSON file under PILOT_HOME: an
// object holding, under one key, a path → hash map. A project's
// .mcp.json (mcp-trust.json, "projects": the project folder) and its
// settings files (settings-trust.json, "files": each file) are kept so. A
// change of the content is a new hash, so it asks again.
package trustfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"pilot/backend/ownerfile"
)

// Hash identifies a content as trusted.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Store is one trust file.
type Store struct {
	Dir   string // PILOT_HOME
	Name  string // the file's name in Dir
	Key   string // the key of the map in the file
	Again string // what to do when the file is not valid JSON, e.g. "trust the project's .mcp.json again"
}

var mu sync.Mutex // one writer at a time in this process

// Get is the hash trusted for key ("" for none).
func (s Store) Get(key string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	m, err := s.read()
	return m[key], err
}

// Set records hash for key; "" removes key. A file that is not valid JSON
// is replaced.
func (s Store) Set(key, hash string) error {
	mu.Lock()
	defer mu.Unlock()
	m, err := s.read()
	if err != nil {
		m = map[string]string{}
	}
	if hash == "" {
		delete(m, key)
	} else {
		m[key] = hash
	}
	return s.write(m)
}

// ForgetUnder removes every key under the folder dir (dir itself
// included), for a folder that goes away.
func (s Store) ForgetUnder(dir string) error {
	mu.Lock()
	defer mu.Unlock()
	m, err := s.read()
	if err != nil {
		return err
	}
	prefix := strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator)
	n := len(m)
	for k := range m {
		if k == dir || strings.HasPrefix(k, prefix) {
			delete(m, k)
		}
	}
	if len(m) == n {
		return nil
	}
	return s.write(m)
}

func (s Store) read() (map[string]string, error) {
	m := map[string]string{}
	path := filepath.Join(s.Dir, s.Name)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := ownerfile.Check(path); err != nil {
		return m, fmt.Errorf("%w; then %s", err, s.Again)
	}
	var doc map[string]map[string]string
	if err := json.Unmarshal(b, &doc); err != nil {
		return m, fmt.Errorf("%s is not valid JSON (%v): %s", path, err, s.Again)
	}
	if doc[s.Key] != nil {
		m = doc[s.Key]
	}
	return m, nil
}

// write replaces the file atomically (a temporary file renamed over it),
// usable by its owner only (ownerfile: mode 0600, an owner-only access
// list on Windows).
func (s Store) write(m map[string]string) error {
	b, err := json.MarshalIndent(map[string]map[string]string{s.Key: m}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.Dir, "."+s.Name+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // finds nothing after the rename
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := ownerfile.Restrict(tmp.Name()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(s.Dir, s.Name))
}
