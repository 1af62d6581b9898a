package settingsjson

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTrust: the user's own files are trusted; a project's file only with
// the content trusted, again after a change, never when broken; Forget
// drops a folder's files.
func TestTrust(t *testing.T) {
	t.Parallel()
	home, pilotHome, project := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(dir, rel, body string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(home, ".claude/settings.json", `{"permissions":{"allow":["Bash(ls)"]}}`)
	write(project, ".claude/settings.json", `{"permissions":{"allow":["Bash(make:*)"]}}`)
	write(project, ".pilot/settings.json", `{not json`)
	load := func() map[Scope]File {
		out := map[Scope]File{}
		for _, f := range Load(home, pilotHome, project) {
			out[f.Scope] = f
		}
		return out
	}
	fs := load()
	if !Trusted(pilotHome, fs[ScopeUser]) {
		t.Error("the user's own file is not trusted")
	}
	proj := fs[ScopeProject]
	if Trusted(pilotHome, proj) || WasTrusted(pilotHome, proj) {
		t.Fatal("a project's file is trusted before the user trusted it")
	}
	if err := Trust(pilotHome, proj); err != nil {
		t.Fatal(err)
	}
	if !Trusted(pilotHome, load()[ScopeProject]) {
		t.Error("the project's file is not trusted after Trust")
	}
	broken := fs[ScopePilotProject]
	if err := Trust(pilotHome, broken); err == nil {
		t.Fatal("a file that cannot be parsed was trusted")
	}
	if Trusted(pilotHome, load()[ScopePilotProject]) {
		t.Error("a file that cannot be parsed is trusted")
	}
	write(project, ".claude/settings.json", `{"permissions":{"allow":["Bash(*)"]}}`)
	changed := load()[ScopeProject]
	if Trusted(pilotHome, changed) || !WasTrusted(pilotHome, changed) {
		t.Error("a changed file is still trusted, or its earlier trust is forgotten")
	}
	if err := Forget(pilotHome, project); err != nil {
		t.Fatal(err)
	}
	if WasTrusted(pilotHome, changed) {
		t.Error("Forget left the folder's trust")
	}
}

// TestTrustWorktree: a worktree's copy of a trusted project file with the
// same content is trusted; one that differs is not.
func TestTrustWorktree(t *testing.T) {
	t.Parallel()
	pilotHome, project, worktree := t.TempDir(), t.TempDir(), t.TempDir()
	put := func(dir, rel, body string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same, other := `{"permissions":{"allow":["Bash(make:*)"]}}`, `{"permissions":{"allow":["Bash(*)"]}}`
	put(project, ".claude/settings.json", same)
	put(project, ".pilot/settings.json", same)
	put(worktree, ".claude/settings.json", same)
	put(worktree, ".pilot/settings.json", other)
	for _, f := range Load("", "", project) {
		if err := Trust(pilotHome, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := TrustWorktree(pilotHome, project, worktree); err != nil {
		t.Fatal(err)
	}
	for _, f := range Load("", "", worktree) {
		if want := f.Scope == ScopeProject; Trusted(pilotHome, f) != want {
			t.Errorf("%s trusted = %v, want %v", f.Path, !want, want)
		}
	}
}
