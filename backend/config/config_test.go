package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func TestResolvePrecedence(t *testing.T) {
	t.Parallel()
	saved := Settings{Provider: "anthropic", Model: "claude-haiku-4-5", MaxTokens: 4000, ApprovalMode: "edits",
		BaseURLs: map[string]string{"anthropic": "https://proxy.example/", "openai": "http://localhost:11434/v1"}, BudgetUSD: 5}
	tests := []struct {
		name     string
		settings *Settings
		keys     map[string]string
		dotenv   string
		env      map[string]string
		want     map[string]string // field → "value source from"
	}{
		{"defaults", nil, nil, "", nil, map[string]string{
			"provider": "anthropic default ", "model": "claude-sonnet-4-5 default ", "base": "https://api.anthropic.com default ",
			"key": " default ", "approval": "ask default ", "max": "8192 default "}},
		{"settings", &saved, map[string]string{"anthropic": "sk-ant-saved-key-000000"}, "", nil, map[string]string{
			"provider": "anthropic settings ", "model": "claude-haiku-4-5 settings ", "base": "https://proxy.example settings ",
			"key": "sk-ant-saved-key-000000 settings ", "approval": "edits settings ", "max": "4000 settings "}},
		{"environment beats settings", &saved, map[string]string{"anthropic": "sk-ant-saved-key-000000"}, "TS_AGENT_API_KEY=sk-ant-dotenv-000000", map[string]string{
			"PILOT_MODEL": "claude-opus-4-1", "ANTHROPIC_API_KEY": "sk-ant-env-key-000000", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/v1"}, map[string]string{
			"provider": "anthropic settings ", "model": "claude-opus-4-1 env PILOT_MODEL", "base": "http://127.0.0.1:9 env ANTHROPIC_BASE_URL",
			"key": "sk-ant-env-key-000000 env ANTHROPIC_API_KEY"}},
		{".env TS_AGENT_API_KEY beats the saved key", &saved, map[string]string{"anthropic": "sk-ant-saved-key-000000"}, "# comment\nexport TS_AGENT_API_KEY=\"sk-ant-dotenv-000000\"\n", nil, map[string]string{
			"key": "sk-ant-dotenv-000000 dotenv PROJECT/.env"}},
		{"switching provider by env drops the saved model", &saved, map[string]string{"openai": "sk-saved-openai-0000"}, "", map[string]string{"PILOT_PROVIDER": "OpenAI"}, map[string]string{
			"provider": "openai env PILOT_PROVIDER", "model": " default ", "base": "http://localhost:11434/v1 settings ", "key": "sk-saved-openai-0000 settings "}},
		{"openai env", nil, nil, "TS_AGENT_API_KEY=ignored-for-openai", map[string]string{"PILOT_PROVIDER": "openai", "OPENAI_API_KEY": "sk-openai-env-000000"}, map[string]string{
			"model": "gpt-4.1 default ", "base": "https://api.openai.com/v1 default ", "key": "sk-openai-env-000000 env OPENAI_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home, project := t.TempDir(), t.TempDir()
			if tt.settings != nil {
				if err := SaveSettings(home, *tt.settings); err != nil {
					t.Fatal(err)
				}
			}
			for p, k := range tt.keys {
				if err := SaveKey(home, p, k); err != nil {
					t.Fatal(err)
				}
			}
			if tt.dotenv != "" {
				writeFile(t, filepath.Join(project, ".env"), tt.dotenv, 0o600)
			}
			r, err := Resolve(home, project, envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			str := func(v Value[string]) string {
				return v.Value + " " + string(v.Source) + " " + strings.ReplaceAll(v.From, project, "PROJECT")
			}
			got := map[string]string{
				"provider": str(r.Provider), "model": str(r.Model), "base": str(r.BaseURL), "key": str(r.APIKey),
				"approval": str(r.ApprovalMode), "max": str(Value[string]{Value: strconv.Itoa(r.MaxTokens.Value), Source: r.MaxTokens.Source}),
			}
			for k, want := range tt.want {
				if got[k] != want {
					t.Errorf("%s = %q, want %q", k, got[k], want)
				}
			}
			if len(r.Warnings) != 0 {
				t.Errorf("warnings: %v", r.Warnings)
			}
		})
	}
}

func TestResolveEnvPath(t *testing.T) {
	t.Parallel()
	home, project, other := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, ".env"), "TS_AGENT_API_KEY=from-project-000000", 0o600)
	envFile := filepath.Join(other, "agent.env")
	writeFile(t, envFile, "TS_AGENT_API_KEY='from-env-path-000000' # the key\n", 0o600)
	r, err := Resolve(home, project, envOf(map[string]string{"ENV_PATH": envFile}))
	if err != nil {
		t.Fatal(err)
	}
	if r.APIKey.Value != "from-env-path-000000" || r.APIKey.Source != SourceDotEnv || r.APIKey.From != envFile {
		t.Errorf("key = %+v", r.APIKey)
	}
	r, _ = Resolve(home, project, envOf(map[string]string{"ENV_PATH": filepath.Join(other, "missing.env")}))
	if r.APIKey.Value != "" || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "missing.env") {
		t.Errorf("missing ENV_PATH file: %+v %v", r.APIKey, r.Warnings)
	}
}

func TestResolveBadProvider(t *testing.T) {
	t.Parallel()
	if _, err := Resolve(t.TempDir(), "", envOf(map[string]string{"PILOT_PROVIDER": "cohere"})); err == nil || !strings.Contains(err.Error(), "PILOT_PROVIDER") {
		t.Errorf("err = %v", err)
	}
	home := t.TempDir()
	if err := SaveSettings(home, Settings{Provider: "cohere", ApprovalMode: "yolo"}); err != nil {
		t.Fatal(err)
	}
	r, err := Resolve(home, "", envOf(nil))
	if err != nil || r.Provider.Value != "anthropic" || r.ApprovalMode.Value != "ask" || len(r.Warnings) != 2 {
		t.Errorf("r = %+v, err %v", r, err)
	}
}

func TestKeysFileMode(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	home := t.TempDir()
	if err := SaveKey(home, "anthropic", "sk-ant-aaaaaaaaaaaa"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, KeysFile)
	mode := func() os.FileMode {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.Mode().Perm()
	}
	if m := mode(); m != 0o600 {
		t.Fatalf("created with %o", m)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	keys, err := LoadKeys(home)
	if err != nil || keys["anthropic"] != "sk-ant-aaaaaaaaaaaa" || mode() != 0o600 {
		t.Errorf("load fixed mode to %o, keys %v, err %v", mode(), keys, err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := SaveKey(home, "openai", "sk-bbbbbbbbbbbbbbbb"); err != nil || mode() != 0o600 {
		t.Errorf("rewrite: mode %o, err %v", mode(), err)
	}
	if err := SaveKey(home, "anthropic", ""); err != nil {
		t.Fatal(err)
	}
	keys, _ = LoadKeys(home)
	if len(keys) != 1 || keys["openai"] == "" {
		t.Errorf("keys after delete: %v", keys)
	}
	raw, _ := os.ReadFile(filepath.Join(home, SettingsFile))
	if len(raw) != 0 {
		t.Error("keys leaked into settings.json")
	}
}

func TestCorruptSettings(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := filepath.Join(home, SettingsFile)
	const broken = `{"provider": "openai", "model": "gpt-4o",` // the user's half-edited file
	writeFile(t, path, broken, 0o644)

	_, err := LoadSettings(home)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "Fix the file") {
		t.Fatalf("err = %v", err)
	}
	r, err := Resolve(home, "", envOf(nil))
	if err != nil || len(r.Warnings) != 1 || r.Provider.Value != "anthropic" {
		t.Fatalf("resolve with a corrupt file: %+v, %v", r, err)
	}
	if raw, _ := os.ReadFile(path); string(raw) != broken {
		t.Fatal("loading touched the corrupt file")
	}

	if err := SaveSettings(home, Settings{Provider: "anthropic"}); err != nil {
		t.Fatal(err)
	}
	bad, _ := filepath.Glob(path + ".bad-*")
	if len(bad) != 1 {
		t.Fatalf("moved aside: %v", bad)
	}
	if raw, _ := os.ReadFile(bad[0]); string(raw) != broken {
		t.Error("the corrupt file was not kept")
	}
	s, err := LoadSettings(home)
	if err != nil || s.Provider != "anthropic" {
		t.Errorf("after save: %+v %v", s, err)
	}
}

func TestMissingHome(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "not", "yet")
	r, err := Resolve(home, "", envOf(nil))
	if err != nil || len(r.Warnings) != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	if err := SaveSettings(home, Settings{Model: "x"}); err != nil {
		t.Fatal(err)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	r, _ := Resolve(home, "", envOf(map[string]string{"ANTHROPIC_API_KEY": "my-custom-key-123"}))
	tests := []struct{ in, want string }{
		{"request failed with key my-custom-key-123", "request failed with key [REDACTED]"},
		{"x-api-key: sk-ant-api03-AbCdEfGhIjKlMnOp_qr-st", "x-api-key: [REDACTED]"},
		{"Authorization: Bearer sk-proj-abcdefghijklmnop", "Authorization: Bearer [REDACTED]"},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload", "Authorization: Bearer [REDACTED]"},
		{"a risk-free sentence with sk-short", "a risk-free sentence with sk-short"},
	}
	for _, tt := range tests {
		if got := r.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Redact("k=abc123456", "abc123456"); got != "k=[REDACTED]" {
		t.Errorf("Redact = %q", got)
	}
	if m := r.MaskedKey(); m.Value != "my-…-123" || m.Source != SourceEnv {
		t.Errorf("masked key %+v", m)
	}
}

func TestParseDotEnv(t *testing.T) {
	t.Parallel()
	got := parseDotEnv("A=1\r\n# c\n\nexport B = \"two words\"\nC='x # y'\nD=plain # comment\nnoequals\n")
	want := map[string]string{"A": "1", "B": "two words", "C": "x # y", "D": "plain"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
}

func TestLLMConfig(t *testing.T) {
	t.Parallel()
	r, err := Resolve(t.TempDir(), "", envOf(map[string]string{"PILOT_PROVIDER": "openai", "OPENAI_BASE_URL": "http://localhost:1234/v1/", "PILOT_MODEL": "qwen"}))
	if err != nil {
		t.Fatal(err)
	}
	c := r.LLM()
	if c.Provider != "openai" || c.BaseURL != "http://localhost:1234/v1" || c.Model != "qwen" || c.APIKey != "" || c.MaxTokens != 8192 {
		t.Errorf("%+v", c)
	}
}

func TestLogRedactor(t *testing.T) {
	t.Parallel()
	env := map[string]string{"OPENAI_API_KEY": "local-server-key-1234567"}
	redact := LogRedactor(func(k string) string { return env[k] })
	tests := []struct{ in, gone string }{
		{"calling with local-server-key-1234567 failed", "local-server-key-1234567"},
		{"401 for sk-ant-api03-abcdefghijklmnop", "abcdefghijklmnop"},
	}
	for _, tc := range tests {
		if got := redact(tc.in); strings.Contains(got, tc.gone) {
			t.Errorf("redact(%q) = %q: the key is still there", tc.in, got)
		}
	}
}

func TestChooseKeepsASessionsProvider(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := SaveSettings(home, Settings{Provider: "anthropic", Model: "claude-sonnet-4-5"}); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string { return map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}[k] }
	r, err := Resolve(home, t.TempDir(), Choose(env, "openai", "qwen3"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Provider.Value != "openai" || r.Model.Value != "qwen3" || r.BaseURL.Value != "http://localhost:11434/v1" {
		t.Fatalf("resolved %s %s %s; want the session's openai qwen3 on its server", r.Provider.Value, r.Model.Value, r.BaseURL.Value)
	}
	if r, _ := Resolve(home, t.TempDir(), Choose(env, "", "")); r.Provider.Value != "anthropic" {
		t.Fatalf("with nothing chosen the saved provider should hold, got %s", r.Provider.Value)
	}
}
