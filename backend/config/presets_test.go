package config

import (
	"testing"
)

// TestResolvePreset: PILOT_PROVIDER (and so --provider) names a preset,
// which brings its base URL, its default model, and its own key variable;
// a key saved for it in Settings is its own, not another preset's.
func TestResolvePreset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		keys  map[string]string
		saved Settings
		env   map[string]string
		want  [4]string // provider, base URL, model, "key source from"
	}{
		{"deepseek from its env key", nil, Settings{}, map[string]string{"PILOT_PROVIDER": "deepseek", "DEEPSEEK_API_KEY": "ds-key-0123456789", "OPENAI_API_KEY": "sk-not-this-one-000000"},
			[4]string{"deepseek", "https://api.deepseek.com", "deepseek-v4-flash", "ds-key-0123456789 env DEEPSEEK_API_KEY"}},
		{"a saved key belongs to its preset", map[string]string{"openrouter": "or-saved-0123456789", "openai": "sk-openai-saved-000000"}, Settings{}, map[string]string{"PILOT_PROVIDER": "OpenRouter"},
			[4]string{"openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5", "or-saved-0123456789 settings "}},
		{"a local preset needs no key and has no default model", nil, Settings{}, map[string]string{"PILOT_PROVIDER": "ollama"},
			[4]string{"ollama", "http://localhost:11434/v1", "", " default "}},
		{"saved preset with its saved base URL", nil, Settings{Provider: "vllm", BaseURLs: map[string]string{"vllm": "http://gpu:8000/v1"}, Model: "qwen"}, nil,
			[4]string{"vllm", "http://gpu:8000/v1", "qwen", " default "}},
		{"OPENAI_BASE_URL is openai's, not a preset's", nil, Settings{}, map[string]string{"PILOT_PROVIDER": "groq", "OPENAI_BASE_URL": "http://localhost:1/v1", "GROQ_API_KEY": "gsk_0123456789"},
			[4]string{"groq", "https://api.groq.com/openai/v1", "openai/gpt-oss-120b", "gsk_0123456789 env GROQ_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if err := SaveSettings(home, tt.saved); err != nil {
				t.Fatal(err)
			}
			for p, k := range tt.keys {
				if err := SaveKey(home, p, k); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Resolve(home, "", envOf(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			got := [4]string{r.Provider.Value, r.BaseURL.Value, r.Model.Value, r.APIKey.Value + " " + string(r.APIKey.Source) + " " + r.APIKey.From}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if c := r.LLM(); c.Provider != tt.want[0] {
				t.Errorf("LLM().Provider = %s", c.Provider)
			}
		})
	}
}

func TestLogRedactorCoversPresetKeys(t *testing.T) {
	t.Parallel()
	env := map[string]string{"MISTRAL_API_KEY": "mistral-secret-value-42"}
	if got := LogRedactor(envOf(env))("sent mistral-secret-value-42"); got != "sent [REDACTED]" {
		t.Errorf("redacted: %q", got)
	}
}
