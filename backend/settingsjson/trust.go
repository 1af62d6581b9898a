package settingsjson

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
)

// TrustFile under PILOT_HOME holds, per project settings file (its
// absolute path), the sha256 of the content the user trusted. A project's
// file carries authority (its allow rules, its hooks) only while it still
// has that content: any change asks again. The prompt that records it is
// the one that trusts the project's .mcp.json (service.TrustPrompt).
const TrustFile = "settings-trust.json"

var trustMu sync.Mutex

// Hash identifies a settings file's content as trusted.
func Hash(raw []byte) string {
	h := sha256.Sum256(raw)
	return hex.EncodeToString(h[:])
}

type trustDoc struct {
	Files map[string]string `json:"files"`
}

// Trusted reports whether f may carry authority: a file of the user's
// own (ScopeUser, ScopePilotUser) always; a project's file only when the
// user trusted exactly its content (Raw) as read. A file that could not be
// read or parsed is never trusted. Hooks and allow rules of a project's
// file run or apply only when this says so.
func Trusted(pilotHome string, f File) bool {
	if f.Err != nil {
		return false
	}
	if !f.Scope.FromProject() {
		return true
	}
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(pilotHome)
	return err == nil && doc.Files[cleanPath(f.Path)] == Hash(f.Raw)
}

// WasTrusted reports whether some other content of f's path was trusted
// before (so a prompt can say the file changed).
func WasTrusted(pilotHome string, f File) bool {
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(pilotHome)
	return err == nil && doc.Files[cleanPath(f.Path)] != ""
}

// Trust records that the user trusts the file at path with the content
// whose Hash is hash (the content they were shown).
func Trust(pilotHome, path, hash string) error {
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(pilotHome)
	if err != nil {
		doc = trustDoc{Files: map[string]string{}}
	}
	doc.Files[cleanPath(path)] = hash
	return writeTrust(pilotHome, doc)
}

// Forget drops the trust of every settings file under dir (a discarded
// worktree), so a later folder at the same path starts untrusted.
func Forget(pilotHome, dir string) error {
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(pilotHome)
	if err != nil {
		return err
	}
	prefix := cleanPath(dir) + string(filepath.Separator)
	n := len(doc.Files)
	for p := range doc.Files {
		if strings.HasPrefix(p, prefix) {
			delete(doc.Files, p)
		}
	}
	if len(doc.Files) == n {
		return nil
	}
	return writeTrust(pilotHome, doc)
}

func readTrust(home string) (trustDoc, error) {
	doc := trustDoc{Files: map[string]string{}}
	path := filepath.Join(home, TrustFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return trustDoc{Files: map[string]string{}}, fmt.Errorf("%s is not valid JSON (%v): trust the project's settings files again (pilot trust)", path, err)
	}
	if doc.Files == nil {
		doc.Files = map[string]string{}
	}
	return doc, nil
}

func writeTrust(home string, doc trustDoc) error {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(home, "."+TrustFile+".tmp-*")
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
	return os.Rename(tmp.Name(), filepath.Join(home, TrustFile))
}

// cleanPath is the key of a file: absolute, links resolved in its folder.
func cleanPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(dir, filepath.Base(p))
	}
	return filepath.Clean(p)
}

// TrustWorktree extends the trust of the project folder's settings files
// to the same files of a worktree of it (worktree: the project's folder
// inside the worktree): each project file trusted as it is now whose copy
// in the worktree has the very same content is trusted there too. A file
// that differs, or is not trusted in the project, asks like any other.
func TrustWorktree(pilotHome, project, worktree string) error {
	proj := Load("", "", project)
	for _, wf := range Load("", "", worktree) {
		for _, pf := range proj {
			if pf.Scope == wf.Scope && pf.Scope.FromProject() && Hash(pf.Raw) == Hash(wf.Raw) && Trusted(pilotHome, pf) {
				if err := Trust(pilotHome, wf.Path, Hash(wf.Raw)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
