package mcp

import (
	"path/filepath"

	"pilot/backend/trustfile"
)

// TrustFile under PILOT_HOME holds, per project folder, the sha256 of the
// .mcp.json the user trusted. A project's servers start only while its
// file still has that hash: any change asks again.
const TrustFile = "mcp-trust.json"

// trust is the store of TrustFile in home.
func trust(home string) trustfile.Store {
	return trustfile.Store{Dir: home, Name: TrustFile, Key: "projects", Again: "trust the project's .mcp.json again"}
}

// Trusted reports whether the project's .mcp.json with this hash was
// trusted. A project without the file needs no trust.
func Trusted(home, project, hash string) (bool, error) {
	if hash == "" {
		return true, nil
	}
	got, err := trust(home).Get(cleanProject(project))
	return err == nil && got == hash, err
}

// Trust records that the user trusts the project's .mcp.json with hash.
func Trust(home, project, hash string) error { return trust(home).Set(cleanProject(project), hash) }

// Forget drops the trust recorded for a folder that goes away (a
// discarded worktree), so a later folder at the same path starts
// untrusted. Call it while the folder still exists.
func Forget(home, project string) error {
	if !WasTrusted(home, project) {
		return nil
	}
	return trust(home).Set(cleanProject(project), "")
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
	got, err := trust(home).Get(cleanProject(project))
	return err == nil && got != ""
}

// TrustWorktree extends the project's trust to a worktree of it: when the
// user trusts the project's .mcp.json and the worktree's has the very same
// content, the worktree's is trusted too (the same servers, the same
// commands). A worktree whose file differs, or a project whose file is not
// trusted, is left untrusted and asks like any project. It reports whether
// it trusted the worktree's file.
func TrustWorktree(home, project, worktree string) (bool, error) {
	_, raw, err := ReadProject(project)
	if err != nil || raw == nil {
		return false, err
	}
	_, wraw, err := ReadProject(worktree)
	if err != nil || wraw == nil || trustfile.Hash(wraw) != trustfile.Hash(raw) {
		return false, err
	}
	if ok, err := Trusted(home, project, trustfile.Hash(raw)); !ok || err != nil {
		return false, err
	}
	return true, Trust(home, worktree, trustfile.Hash(raw))
}
