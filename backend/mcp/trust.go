package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// TrustFile under PILOT_HOME holds, per project folder, the sha256 of the
// .mcp.json the user trusted. A project's servers start only while its
// file still has that hash: any change asks again.
const TrustFile = "mcp-trust.json"

var trustMu sync.Mutex

// Hash identifies a file's content.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

type trustDoc struct {
	Projects map[string]string `json:"projects"`
}

func readTrust(home string) (trustDoc, error) {
	doc := trustDoc{Projects: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(home, TrustFile))
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, err
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return trustDoc{Projects: map[string]string{}}, fmt.Errorf("%s is not valid JSON (%v): trust the project's .mcp.json again", filepath.Join(home, TrustFile), err)
	}
	if doc.Projects == nil {
		doc.Projects = map[string]string{}
	}
	return doc, nil
}

// Trusted reports whether the project's .mcp.json with this hash was
// trusted. A project without the file needs no trust.
func Trusted(home, project, hash string) (bool, error) {
	if hash == "" {
		return true, nil
	}
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(home)
	if err != nil {
		return false, err
	}
	return doc.Projects[cleanProject(project)] == hash, nil
}

// Trust records that the user trusts the project's .mcp.json with hash.
func Trust(home, project, hash string) error { return setTrust(home, project, hash) }

// Forget drops the trust recorded for a folder that goes away (a
// discarded worktree), so a later folder at the same path starts
// untrusted. Call it while the folder still exists.
func Forget(home, project string) error {
	if !WasTrusted(home, project) {
		return nil
	}
	return setTrust(home, project, "")
}

// setTrust records hash for the project; "" removes its entry.
func setTrust(home, project, hash string) error {
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(home)
	if err != nil {
		doc = trustDoc{Projects: map[string]string{}}
	}
	if hash == "" {
		delete(doc.Projects, cleanProject(project))
	} else {
		doc.Projects[cleanProject(project)] = hash
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(home, TrustFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(home, TrustFile))
}

func cleanProject(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.Clean(p)
}

// WasTrusted reports whether some version of the project's .mcp.json was
// trusted (so a prompt can say the file changed).
func WasTrusted(home, project string) bool {
	trustMu.Lock()
	defer trustMu.Unlock()
	doc, err := readTrust(home)
	return err == nil && doc.Projects[cleanProject(project)] != ""
}

// TrustWorktree extends the project's trust to a worktree of it: when the
// user trusts the project's .mcp.json and the worktree's has the very same
// content, the worktree's is trusted too (the same servers, the same
// commands). A worktree whose file differs, or a project whose file is not
// trusted, is left untrusted and asks like any project. It reports whether
// it trusted the worktree's file.
func TrustWorktree(home, project, worktree string) (bool, error) {
	_, raw, err := ReadFile(ProjectPath(project))
	if err != nil || raw == nil {
		return false, err
	}
	_, wraw, err := ReadFile(ProjectPath(worktree))
	if err != nil || wraw == nil || Hash(wraw) != Hash(raw) {
		return false, err
	}
	if ok, err := Trusted(home, project, Hash(raw)); !ok || err != nil {
		return false, err
	}
	return true, Trust(home, worktree, Hash(raw))
}
