package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestSaveSettingsKeepsUnknownKeys: PILOT_HOME/settings.json is also where
// a user writes hooks and permission rules (read by settingsjson); saving
// the Settings screen must keep them, and must drop a setting the user
// cleared.
func TestSaveSettingsKeepsUnknownKeys(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := filepath.Join(home, SettingsFile)
	written := `{
  "provider": "openai",
  "maxTokens": 900,
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]},
  "permissions": {"deny": ["Bash(rm -rf:*)"], "allow": ["Read(./docs/**)"]},
  "futureKey": [1, 2, 3]
}`
	if err := os.WriteFile(path, []byte(written), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SaveSettings(home, Settings{Provider: "anthropic", Model: "claude-sonnet-4-5"}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("saved file is not JSON: %v\n%s", err, raw)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal([]byte(written), &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"hooks", "permissions", "futureKey"} {
		if !jsonEqual(t, got[k], want[k]) {
			t.Errorf("key %q = %s after saving, want it kept as %s", k, got[k], want[k])
		}
	}
	if _, ok := got["maxTokens"]; ok {
		t.Errorf("maxTokens was cleared in Settings but is still in the file: %s", raw)
	}
	if string(got["provider"]) != `"anthropic"` || string(got["model"]) != `"claude-sonnet-4-5"` {
		t.Errorf("the saved settings are not in the file: %s", raw)
	}
	s, err := LoadSettings(home)
	if err != nil || s.Provider != "anthropic" || s.MaxTokens != 0 {
		t.Errorf("LoadSettings = %+v, %v", s, err)
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
