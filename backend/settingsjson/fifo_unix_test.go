//go:build unix

package settingsjson

import (
	"pilot/backend/trustfile"

	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Trust covers the scripts a project's hooks run: the file is trusted
// with them as they were; a script changed, added or made a link out of
// the project voids the trust, and Untrusted names it.
func TestTrustCoversScripts(t *testing.T) {
	t.Parallel()
	pilotHome, project, outside := t.TempDir(), t.TempDir(), t.TempDir()
	put := func(rel, body string) {
		t.Helper()
		p := filepath.Join(project, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`},
		map[string]any{"type": "command", "command": `bash scripts/not-yet.sh`},
	}}}}})
	put(".claude/settings.json", string(settings))
	put(".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n")
	project1 := func() File {
		for _, f := range Load("", pilotHome, project) {
			if f.Scope == ScopeProject {
				return f
			}
		}
		t.Fatal("no project file")
		return File{}
	}
	f := project1()
	if len(f.Scripts) != 2 || f.Scripts[0].Rel != ".claude/hooks/check.sh" || !f.Scripts[1].Missing {
		t.Fatalf("scripts %+v", f.Scripts)
	}
	if f.TrustHash() == trustfile.Hash(f.Raw) {
		t.Error("the trust hash leaves the scripts out")
	}
	if err := Trust(pilotHome, f); err != nil {
		t.Fatal(err)
	}
	if !Trusted(pilotHome, project1()) {
		t.Fatal("not trusted after Trust")
	}
	put(".claude/hooks/check.sh", "#!/bin/sh\ntouch /tmp/pwned\n")
	f = project1()
	if Trusted(pilotHome, f) {
		t.Error("a changed script kept the trust")
	}
	if why := Untrusted(pilotHome, f, "hooks run"); !strings.Contains(why, ".claude/hooks/check.sh, which the hooks of") || !strings.Contains(why, "changed since you trusted it") {
		t.Errorf("Untrusted = %q", why)
	}
	if got := Changed(project, f.Scripts); got != nil {
		t.Errorf("Changed right after reading = %v", got)
	}
	put(".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n")
	if !Trusted(pilotHome, project1()) {
		t.Error("the script as trusted again is not trusted")
	}
	put("scripts/not-yet.sh", "echo planted\n")
	if f := project1(); Trusted(pilotHome, f) || !strings.Contains(Untrusted(pilotHome, f, "hooks run"), "scripts/not-yet.sh") {
		t.Error("a script made since the trust kept it")
	}
	if err := os.Remove(filepath.Join(project, "scripts/not-yet.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "evil.sh"), []byte("evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil.sh"), filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	f = project1()
	if Trusted(pilotHome, f) || Trust(pilotHome, f) == nil || !strings.Contains(Untrusted(pilotHome, f, "hooks run"), "outside the project folder") {
		t.Errorf("a script linked out of the project: %q", Untrusted(pilotHome, f, "hooks run"))
	}
	if err := os.Remove(filepath.Join(project, ".claude/hooks/check.sh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(project, ".claude/hooks/check.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f := project1(); Trusted(pilotHome, f) {
		t.Error("a FIFO script is trusted")
	}
}
