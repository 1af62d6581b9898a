package service

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/settingsjson"
	"pilot/backend/wire"
)

// One trust prompt for a folder's .mcp.json and its settings files: it
// shows the servers, each file's allow rules and hooks, nothing of the
// user's own files; trusting with its token trusts exactly what was shown
// (SettingsTrusted says so after), a file changed between the prompt and
// the answer trusts nothing, and a change after asks again.
func TestTrustPromptCoversSettingsFiles(t *testing.T) {
	t.Parallel()
	home, userHome, dir := t.TempDir(), t.TempDir(), t.TempDir()
	w := openAt(t, home, map[string]string{"HOME": userHome})
	t.Cleanup(w.Close)
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claude := filepath.Join(dir, ".claude", "settings.json")
	write(filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"db": {"command": "db-server"}}}`)
	write(claude, `{"permissions": {"allow": ["Bash(make:*)"], "deny": ["Bash(rm:*)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}`)
	write(filepath.Join(dir, ".claude", "settings.local.json"), `{"permissions": {"deny": ["Read(.env)"]}}`) // restricts only: nothing to trust
	write(filepath.Join(userHome, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(ls)"]}}`)   // the user's: no trust

	p, err := w.MCPTrustPromptIn(dir)
	if err != nil || !p.Needed || p.Token == "" {
		t.Fatalf("prompt: %+v, %v", p, err)
	}
	var kinds []string
	for _, s := range p.Sections {
		kinds = append(kinds, string(s.Kind)+" "+s.Path)
	}
	want := []string{"mcp " + filepath.Join(dir, ".mcp.json"), "rules " + claude, "hooks " + claude}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Fatalf("sections %q, want %q", kinds, want)
	}
	if got := p.Sections[1].Items; len(got) != 1 || !strings.Contains(got[0], `Bash(make:*) → allow run_bash "make", allow run_bash "make *"`) {
		t.Errorf("rules items %q", got)
	}
	if got := p.Sections[2].Items; len(got) != 1 || got[0] != "PreToolUse [Bash]: ./guard.sh" {
		t.Errorf("hooks items %q", got)
	}
	file := func() settingsjson.File {
		for _, f := range w.SettingsFiles(dir) {
			if f.Path == claude {
				return f
			}
		}
		t.Fatal("the project's settings file is not read")
		return settingsjson.File{}
	}
	if w.SettingsTrusted(file()) {
		t.Fatal("the project's settings file is trusted before the prompt was answered")
	}

	// Changed between the prompt and the answer: nothing is trusted.
	write(claude, `{"permissions": {"allow": ["Bash(*)"]}}`)
	if err := w.TrustProjectIn(dir, p.Token); !errors.Is(err, errTrustStale) {
		t.Fatalf("a stale token: %v", err)
	}
	if w.SettingsTrusted(file()) {
		t.Fatal("a stale answer trusted the file")
	}
	if q, _ := w.MCPTrustPromptIn(dir); !q.Needed || len(q.Sections) != 2 || q.Sections[0].Kind != wire.TrustMCP {
		t.Fatalf("after a stale answer: %+v", q)
	}

	p, _ = w.MCPTrustPromptIn(dir)
	if err := w.TrustProjectIn(dir, p.Token); err != nil {
		t.Fatal(err)
	}
	if !w.SettingsTrusted(file()) {
		t.Error("the file is not trusted after the answer")
	}
	if q, err := w.MCPTrustPromptIn(dir); err != nil || q.Needed || len(q.Sections) != 0 {
		t.Errorf("after trusting: %+v, %v", q, err)
	}
	if in := w.ImportedRulesIn(dir); len(in.Rules) == 0 || !in.Rules[0].Applies {
		t.Errorf("imported rules after trusting: %+v", in)
	}
	write(claude, `{"permissions": {"allow": ["Bash(*)", "Bash(curl:*)"]}}`)
	if q, _ := w.MCPTrustPromptIn(dir); !q.Needed || len(q.Sections) != 1 || !q.Sections[0].Changed {
		t.Errorf("a changed file does not ask again, or does not say it changed: %+v", q)
	}
	if w.SettingsTrusted(file()) {
		t.Error("a changed file is still trusted")
	}
}
