package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// TestModelsCommand: pilot models lists the configured server's models,
// says in one sentence when the server cannot be reached, and refuses a
// stray argument with the usage.
func TestModelsCommand(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{})
	defer srv.Close()
	run := func(env map[string]string, args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		env["PILOT_HOME"] = t.TempDir()
		code := Run(context.Background(), append([]string{"models"}, args...), IO{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
		return out.String(), errOut.String(), code
	}
	out, errOut, code := run(map[string]string{"PILOT_PROVIDER": "anthropic", "ANTHROPIC_BASE_URL": srv.URL(), "ANTHROPIC_API_KEY": "sk-ant-test"}, "--project", t.TempDir())
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	out2, _, code := run(map[string]string{"OPENAI_BASE_URL": srv.OpenAIBaseURL(), "OPENAI_API_KEY": "sk-test"}, "--provider", "openai", "--project", t.TempDir(), "--json")
	if code != 0 || !strings.Contains(out2, `"models":[`) || !strings.Contains(out2, `"provider":"openai"`) {
		t.Fatalf("--json: exit %d %s", code, out2)
	}
	if ms := decodeStrict[wire.ModelList](t, out2); ms.BaseURL != srv.OpenAIBaseURL() || len(ms.Models) == 0 {
		t.Errorf("--json: %+v", ms)
	}
	_, errOut, code = run(map[string]string{"PILOT_PROVIDER": "openai", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "OPENAI_API_KEY": "sk-secret-value"}, "--project", t.TempDir())
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || strings.Contains(errOut, "sk-secret-value") {
		t.Errorf("unreachable: exit %d %q", code, errOut)
	}
	if _, errOut, code = run(map[string]string{}, "extra"); code != 2 || !strings.Contains(errOut, "usage") {
		t.Errorf("stray argument: exit %d %q", code, errOut)
	}
}

// TestModelsFactsSources: pilot models --json says where each fact of
// each model came from: the user's override in settings.json, the
// built-in table, or a guess for a model nothing describes; the text
// output marks a guess as one.
func TestModelsFactsSources(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Models: []string{"claude-sonnet-4-5", "my-local-model", "tuned-model"}})
	defer srv.Close()
	home := t.TempDir()
	settings := `{"models":{"tuned-model":{"window":1000000,"maxOutput":65536,"prices":{"input":0.5,"output":1.5}}}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PILOT_HOME": home, "PILOT_PROVIDER": "openai", "OPENAI_BASE_URL": srv.OpenAIBaseURL(), "OPENAI_API_KEY": "sk-test"}
	run := func(args ...string) string {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), append([]string{"models", "--project", t.TempDir()}, args...), IO{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
		}
		return out.String()
	}
	ms := decodeStrict[wire.ModelList](t, run("--json"))
	byID := map[string]wire.ModelFacts{}
	for _, f := range ms.Facts {
		byID[f.ID] = f
	}
	for _, c := range []struct {
		id                     string
		window                 int
		windowOf, outOf, price wire.FactSource
	}{
		{"claude-sonnet-4-5", 200_000, wire.FactTable, wire.FactTable, wire.FactTable},
		{"my-local-model", 32_000, wire.FactGuess, wire.FactGuess, wire.FactGuess},
		{"tuned-model", 1_000_000, wire.FactOverride, wire.FactOverride, wire.FactOverride},
	} {
		f, ok := byID[c.id]
		if !ok || f.Window != c.window || f.WindowSource != c.windowOf || f.MaxOutputSource != c.outOf || f.PricesSource != c.price {
			t.Errorf("%s: %+v, want window %d from %s, answer limit from %s, prices from %s", c.id, f, c.window, c.windowOf, c.outOf, c.price)
		}
	}
	if f := byID["my-local-model"]; f.Prices != nil {
		t.Errorf("a guessed model has prices: %+v", f.Prices)
	}
	text := run()
	for id, want := range map[string][]string{"my-local-model": {"32k (guess)", "8192 (guess)", "not known"},
		"tuned-model": {"1000k (override)", "$0.5/$1.5 (override)"}, "claude-sonnet-4-5": {"200k (table)"}} {
		i := strings.Index(text, "\n"+id+" ")
		line, _, _ := strings.Cut(text[i+1:], "\n")
		for _, w := range want {
			if i < 0 || !strings.Contains(line, w) {
				t.Errorf("the line of %s lacks %q:\n%s", id, w, text)
			}
		}
	}
}
