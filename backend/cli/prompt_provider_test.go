package cli

import (
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/internal/fakellm"
	"pilot/backend/llm"
)

// TestPromptProviderPreset: --provider (and PILOT_PROVIDER) name a preset:
// its key variable is the one read, its base URL the one saved for it,
// and its quirks shape the request (DeepSeek: max_tokens, the reasoning
// field on assistant messages).
func TestPromptProviderPreset(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			srv := fakellm.New(fakellm.Script{APIKey: "ds-key-0123456789", Turns: []fakellm.Turn{{Text: "Hello from the preset.", Repeat: true}}})
			defer srv.Close()
			home := t.TempDir()
			if err := config.SaveSettings(home, config.Settings{BaseURLs: map[string]string{"deepseek": srv.OpenAIBaseURL()}}); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"PILOT_HOME": home, "DEEPSEEK_API_KEY": "ds-key-0123456789", "OPENAI_API_KEY": "sk-wrong-key-000000"}
			args := []string{"-p", "hi", "--project", tempProject(t, nil)}
			if how == "flag" {
				args = append(args, "--provider", "deepseek")
			} else {
				env["PILOT_PROVIDER"] = "deepseek"
			}
			r := runCLI(t, env, "", args...)
			if r.code != 0 || !strings.Contains(r.stdout, "Hello from the preset.") {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			reqs := srv.Requests()
			last := reqs[len(reqs)-1]
			if last.Path != "/v1/chat/completions" || last.Model != "deepseek-v4-flash" || last.Body["max_tokens"] == nil {
				t.Errorf("request %s model %q body %v", last.Path, last.Model, last.Body)
			}
		})
	}
	// --model beats the preset's default.
	srv := fakellm.New(fakellm.Script{APIKey: "ds-key-0123456789", Turns: []fakellm.Turn{{Text: "Pro here.", Repeat: true}}})
	defer srv.Close()
	home := t.TempDir()
	if err := config.SaveSettings(home, config.Settings{BaseURLs: map[string]string{"deepseek": srv.OpenAIBaseURL()}}); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, map[string]string{"PILOT_HOME": home, "DEEPSEEK_API_KEY": "ds-key-0123456789"}, "", "-p", "hi", "--project", tempProject(t, nil), "--provider", "deepseek", "--model", "deepseek-v4-pro")
	if reqs := srv.Requests(); r.code != 0 || len(reqs) == 0 || reqs[len(reqs)-1].Model != "deepseek-v4-pro" {
		t.Errorf("--model: exit %d, %s", r.code, r.stderr)
	}
	// An unknown provider names the ones there are.
	r = runCLI(t, map[string]string{"PILOT_HOME": t.TempDir()}, "", "-p", "hi", "--project", tempProject(t, nil), "--provider", "cohere")
	if r.code == 0 || !strings.Contains(r.stderr, "deepseek") || !strings.Contains(r.stderr, "ollama") {
		t.Errorf("unknown provider: exit %d, %s", r.code, r.stderr)
	}
}

func TestUsageNamesEveryPreset(t *testing.T) {
	t.Parallel()
	for _, p := range llm.Presets() {
		if !strings.Contains(usage, p.ID) || (p.KeyEnv != "" && !strings.Contains(usage, p.KeyEnv)) {
			t.Errorf("usage does not name %s (%s)", p.ID, p.KeyEnv)
		}
	}
}
