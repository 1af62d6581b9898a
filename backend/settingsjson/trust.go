package settingsjson

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"pilot/backend/trustfile"
)

// TrustFile under PILOT_HOME holds, per project settings file (its
// absolute path), the sha256 of the content the user trusted, that of
// every script its hooks name included (TrustHash), and, under the file's
// path, NUL and a script's path, each script's own hash (to say which one
// changed). A project's file carries authority (its allow rules, its
// hooks) only while it and its scripts still have that content: any
// change asks again. The prompt that records it is the one that trusts
// the project's .mcp.json (service.TrustPrompt).
const TrustFile = "settings-trust.json"

// trust is the store of TrustFile in pilotHome.
func trust(pilotHome string) trustfile.Store {
	return trustfile.Store{Dir: pilotHome, Name: TrustFile, Key: "files", Again: "trust the project's settings files again (pilot trust)"}
}

// TrustHash identifies what trusting f trusts: its content and, when its
// hooks name scripts of the project, each script's path and content (a
// missing one as missing). A file whose hooks name no script has the hash
// of its content alone, as before scripts were covered.
func (f File) TrustHash() string {
	if len(f.Scripts) == 0 {
		return trustfile.Hash(f.Raw)
	}
	h := sha256.New()
	h.Write([]byte(trustfile.Hash(f.Raw)))
	for _, s := range f.Scripts {
		fmt.Fprintf(h, "\x00script\x00%s\x00%s", s.Rel, scriptHash(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func scriptHash(s Script) string {
	if s.Missing {
		return "missing"
	}
	return trustfile.Hash(s.Raw)
}

// refusedScript is the first script of f that could not be read.
func refusedScript(f File) *Script {
	for i := range f.Scripts {
		if f.Scripts[i].Err != nil {
			return &f.Scripts[i]
		}
	}
	return nil
}

// Trusted reports whether f may carry authority: a file of the user's
// own (ScopeUser, ScopePilotUser) always; a project's file only when the
// user trusted exactly its content (Raw) and that of the scripts its
// hooks name as read. A file that could not be read or parsed, or one of
// whose scripts could not be read, is never trusted. Hooks and allow
// rules of a project's file run or apply only when this says so.
func Trusted(pilotHome string, f File) bool {
	if f.Err != nil {
		return false
	}
	if !f.Scope.FromProject() {
		return true
	}
	if refusedScript(f) != nil {
		return false
	}
	got, err := trust(pilotHome).Get(key(f.Path))
	return err == nil && got == f.TrustHash()
}

// WasTrusted reports whether some other content of f's path was trusted
// before (so a prompt can say the file changed).
func WasTrusted(pilotHome string, f File) bool {
	got, err := trust(pilotHome).Get(key(f.Path))
	return err == nil && got != ""
}

// Untrusted says in a sentence why the project's file f does not carry
// authority ("" when it does): it could not be read, a script of its
// hooks could not be read, scripts changed since the user trusted it, or
// it was never trusted as it is. what is what waits for the trust ("hooks
// run", "allow rules apply").
func Untrusted(pilotHome string, f File, what string) string {
	switch {
	case Trusted(pilotHome, f):
		return ""
	case f.Err != nil:
		return f.Err.Error()
	}
	if s := refusedScript(f); s != nil {
		return fmt.Sprintf("Not trusted: %s, which its hooks run, %s; its %s only once the script can be read and you trust it (pilot trust, or the trust prompt).", f.Path, strings.TrimSuffix(s.Err.Error(), "."), what)
	}
	if changed := ChangedScripts(pilotHome, f); len(changed) > 0 {
		return fmt.Sprintf("Not trusted: %s, which the hooks of %s run, changed since you trusted it, so its %s no more: look at what changed and trust it again (pilot trust, the trust prompt, or Review and trust… in Settings › Setup).", strings.Join(changed, ", "), f.Path, what)
	}
	return fmt.Sprintf("Not trusted: %s is the project's, and its %s only once you trust it as it is now (pilot trust, the trust prompt, or Review and trust… in Settings › Setup).", f.Path, what)
}

// ChangedScripts lists the scripts of f whose content is not the one the
// user trusted with f (one its hooks name since counts), when f was
// trusted before.
func ChangedScripts(pilotHome string, f File) []string {
	st := trust(pilotHome)
	base := key(f.Path)
	if got, err := st.Get(base); err != nil || got == "" {
		return nil
	}
	var out []string
	for _, s := range f.Scripts {
		if got, err := st.Get(base + "\x00" + s.Rel); err == nil && got != scriptHash(s) { // "" : named since
			out = append(out, s.Rel)
		}
	}
	return out
}

// Trust records that the user trusts the project's file f as read: its
// content and its scripts' (the content they were shown).
func Trust(pilotHome string, f File) error {
	if f.Err != nil {
		return fmt.Errorf("%s cannot be trusted: %w", f.Path, f.Err)
	}
	if s := refusedScript(f); s != nil {
		return fmt.Errorf("%s cannot be trusted: %w", f.Path, s.Err)
	}
	st := trust(pilotHome)
	base := key(f.Path)
	for _, s := range f.Scripts {
		if err := st.Set(base+"\x00"+s.Rel, scriptHash(s)); err != nil {
			return err
		}
	}
	return st.Set(base, f.TrustHash())
}

// Forget drops the trust of every settings file under dir (a discarded
// worktree), so a later folder at the same path starts untrusted.
func Forget(pilotHome, dir string) error {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return trust(pilotHome).ForgetUnder(filepath.Clean(dir))
}

// key is the trust key of a project's settings file (project/.claude/
// settings.json): absolute, the project folder's links resolved, but not
// those of the file's own folder, so a `.claude` that is a link to another
// project's never takes that project's trust (the read refuses the link
// anyway).
func key(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	p = filepath.Clean(p)
	dir, file := filepath.Split(p)
	project, folder := filepath.Split(filepath.Clean(dir))
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	return filepath.Join(project, folder, file)
}

// TrustWorktree extends the trust of the project folder's settings files
// to the same files of a worktree of it (worktree: the project's folder
// inside the worktree): each project file trusted as it is now whose copy
// in the worktree has the very same content, scripts included, is trusted
// there too. A file that differs, or is not trusted in the project, asks
// like any other.
func TrustWorktree(pilotHome, project, worktree string) error {
	proj := Load("", "", project)
	for _, wf := range Load("", "", worktree) {
		for _, pf := range proj {
			if pf.Scope == wf.Scope && pf.Scope.FromProject() && pf.TrustHash() == wf.TrustHash() && Trusted(pilotHome, pf) {
				if err := Trust(pilotHome, wf); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
