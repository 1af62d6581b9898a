package settingsjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	home, pilotHome, project := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"guard.sh","timeout":5}]}]}}`)
	write(t, filepath.Join(pilotHome, "settings.json"), `{"provider":"anthropic"}`)
	write(t, filepath.Join(project, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(npm run test:*)"],"deny":["Read(./secrets/**)"]}}`)
	write(t, filepath.Join(project, ".claude", "settings.local.json"), `{"hooks": [}`)
	write(t, filepath.Join(project, ".pilot", "settings.json"), "  \n")

	files := Load(home, pilotHome, project)
	var scopes []string
	for _, f := range files {
		scopes = append(scopes, string(f.Scope))
	}
	if got, want := strings.Join(scopes, ","), "user,pilot-user,project,local,pilot-project"; got != want {
		t.Fatalf("scopes %s, want %s", got, want)
	}
	if h := files[0].Hooks["PreToolUse"]; len(h) != 1 || h[0].Matcher != "Bash" || h[0].Hooks[0].Command != "guard.sh" || h[0].Hooks[0].Timeout != 5 {
		t.Errorf("user hooks %+v", files[0].Hooks)
	}
	if files[0].Scope.FromProject() || !files[2].Scope.FromProject() {
		t.Error("FromProject wrong")
	}
	if p := files[2].Permissions; len(p.Allow) != 1 || p.Deny[0] != "Read(./secrets/**)" {
		t.Errorf("project permissions %+v", p)
	}
	if err := files[3].Err; err == nil || !strings.Contains(err.Error(), "settings.local.json is not valid settings JSON") {
		t.Errorf("broken file: %v", err)
	}
	if files[3].Hooks != nil {
		t.Error("a broken file's hooks were used")
	}
	if files[4].Err != nil || files[4].Hooks != nil {
		t.Errorf("empty file: %+v", files[4])
	}
}

func TestLoadMissingAndNotRegular(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".claude", "settings.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := Load("", "", project)
	if len(files) != 1 || files[0].Err == nil || !strings.Contains(files[0].Err.Error(), "it is a folder, not a file") {
		t.Fatalf("got %+v", files)
	}
}
