package service

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pilot/backend/wire"
)

// TestSettingsPresets: Settings saves a preset as the provider with its own
// key and base URL, lists every preset with where its key comes from, and
// lists a preset's models with its key.
func TestSettingsPresets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer mistral-saved-0123456789" {
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"message":"Unauthorized","request_id":"x"}`))
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"mistral-large-latest"},{"id":"devstral-medium-latest"}]}`))
	}))
	defer srv.Close()
	w := newWorkspace(t, map[string]string{"GROQ_API_KEY": "gsk_from_env_0123456789"})
	v, err := w.Settings.Save(wire.SettingsInput{Provider: "mistral", BaseURL: srv.URL + "/v1", APIKey: "mistral-saved-0123456789", ApprovalMode: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Provider != "mistral" || v.Model != "devstral-medium-latest" || !v.HasKey || v.BaseURL != srv.URL+"/v1" {
		t.Errorf("view %+v", v)
	}
	byID := map[string]wire.Preset{}
	for _, p := range v.Presets {
		byID[p.ID] = p
	}
	if p := byID["mistral"]; p.KeySource != "settings" || p.KeyEnv != "MISTRAL_API_KEY" || p.SavedBaseURL != srv.URL+"/v1" || p.KeyHint == "" {
		t.Errorf("mistral preset %+v", p)
	}
	if p := byID["groq"]; p.KeySource != "env" || p.KeyEnv != "GROQ_API_KEY" {
		t.Errorf("groq preset %+v", p)
	}
	if p := byID["deepseek"]; p.KeySource != "" || p.KeyHint != "" {
		t.Errorf("deepseek preset %+v", p)
	}
	if p := byID["ollama"]; !p.Local || p.NeedsKey {
		t.Errorf("ollama preset %+v", p)
	}
	// Saving another preset keeps mistral's key for when it comes back.
	if _, err := w.Settings.Save(wire.SettingsInput{Provider: "deepseek", APIKey: "ds-0123456789abcdef", ApprovalMode: "ask"}); err != nil {
		t.Fatal(err)
	}
	models, err := w.Settings.Models(context.Background(), "mistral", srv.URL+"/v1", "")
	if err != nil || strings.Join(models, ",") != "devstral-medium-latest,mistral-large-latest" {
		t.Errorf("models %v, %v", models, err)
	}
	_, err = w.Settings.Models(context.Background(), "mistral", srv.URL+"/v1", "typed-wrong-key-000000")
	if err == nil || !strings.Contains(err.Error(), "rejected the API key") || strings.Contains(err.Error(), "typed-wrong-key") {
		t.Errorf("refused key: %v", err)
	}
	if _, err := w.Settings.Save(wire.SettingsInput{Provider: "cohere", ApprovalMode: "ask"}); err == nil || !strings.Contains(err.Error(), "deepseek") {
		t.Errorf("unknown provider: %v", err)
	}
}
