package cli

import (
	"bytes"
	"context"
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
