package service

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSettingsRulesInForce is what each judgement of the gate adds
// to read the settings files' rules (read again every time: an edit takes
// effect at the next call): here a project with a .claude/settings.json of
// 20 entries and a user file.
func BenchmarkSettingsRulesInForce(b *testing.B) {
	home, userHome, dir := b.TempDir(), b.TempDir(), b.TempDir()
	w := openAt(b, home, map[string]string{"HOME": userHome})
	b.Cleanup(w.Close)
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(userHome, ".claude"), 0o755); err != nil {
		b.Fatal(err)
	}
	project := `{"permissions": {"allow": ["Bash(npm run test:*)", "Bash(npm run lint:*)", "Bash(git diff:*)", "Bash(git status)", "Bash(go test:*)", "Edit(src/**)", "Write(docs/**)", "WebFetch(domain:example.com)", "Read", "Glob"],
	  "deny": ["Bash(rm -rf:*)", "Read(./secrets/**)", "Read(.env)", "Edit(.git/**)", "WebFetch(domain:evil.example)"],
	  "ask": ["Bash(git push:*)", "Bash(npm publish:*)", "Edit(migrations/**)", "WebFetch", "Bash(docker:*)"]}}`
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(project), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userHome, ".claude", "settings.json"), []byte(`{"permissions": {"deny": ["Bash(sudo:*)"]}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	if n := len(w.Rules.inForce(dir)); n < 20 {
		b.Fatalf("%d rules in force", n)
	}
	b.ResetTimer()
	for b.Loop() {
		w.Rules.inForce(dir)
	}
}
