package settingsjson

import (
	"path/filepath"

	"pilot/backend/trustfile"
)

// TrustFile under PILOT_HOME holds, per project settings file (its
// absolute path), the sha256 of the content the user trusted. A project's
// file carries authority (its allow rules, its hooks) only while it still
// has that content: any change asks again. The prompt that records it is
// the one that trusts the project's .mcp.json (service.TrustPrompt).
const TrustFile = "settings-trust.json"

// trust is the store of TrustFile in pilotHome.
func trust(pilotHome string) trustfile.Store {
	return trustfile.Store{Dir: pilotHome, Name: TrustFile, Key: "files", Again: "trust the project's settings files again (pilot trust)"}
}

// Hash identifies a settings file's content as trusted.
func Hash(raw []byte) string { return trustfile.Hash(raw) }

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
	got, err := trust(pilotHome).Get(cleanPath(f.Path))
	return err == nil && got == Hash(f.Raw)
}

// WasTrusted reports whether some other content of f's path was trusted
// before (so a prompt can say the file changed).
func WasTrusted(pilotHome string, f File) bool {
	got, err := trust(pilotHome).Get(cleanPath(f.Path))
	return err == nil && got != ""
}

// Trust records that the user trusts the file at path with the content
// whose Hash is hash (the content they were shown).
func Trust(pilotHome, path, hash string) error {
	return trust(pilotHome).Set(cleanPath(path), hash)
}

// Forget drops the trust of every settings file under dir (a discarded
// worktree), so a later folder at the same path starts untrusted.
func Forget(pilotHome, dir string) error {
	return trust(pilotHome).ForgetUnder(cleanPath(dir))
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
