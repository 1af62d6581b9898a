package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"pilot/backend/childenv"
	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/secret"
)

// Source says where a resolved value came from.
type Source string

const (
	SourceDefault  Source = "default"  // nothing was set
	SourceSettings Source = "settings" // saved in Settings (settings.json or keys.json)
	SourceEnv      Source = "env"      // an environment variable
	SourceDotEnv   Source = "dotenv"   // a .env file (TS_AGENT_API_KEY)
)

// Value is a resolved value and its origin. From names the environment
// variable or the file it was read from, so the Settings screen can say
// "OPENAI_BASE_URL overrides this".
type Value[T any] struct {
	Value  T      `json:"value"`
	Source Source `json:"source"`
	From   string `json:"from,omitempty"`
}

// Resolved is the configuration in force.
type Resolved struct {
	Provider     Value[string] `json:"provider"`
	Model        Value[string] `json:"model"` // empty for a local server nobody chose a model for
	BaseURL      Value[string] `json:"baseUrl"`
	APIKey       Value[string] `json:"-"` // never serialised; see MaskedKey
	MaxTokens    Value[int]    `json:"maxTokens"`
	ApprovalMode Value[string] `json:"approvalMode"`
	Thinking     Value[int]    `json:"thinking"` // extended-thinking budget, 0: off; the calls use ThinkingBudget()
	BudgetTokens int64         `json:"budgetTokens"`
	BudgetUSD    float64       `json:"budgetUsd"`
	// Models are the user's model overrides in force: the saved ones,
	// or none while CheckModels refuses them (a Warning says why).
	Models map[string]ModelOverride `json:"-"`
	// Settings is the saved file as read, for the Settings form.
	Settings Settings `json:"settings"`
	// Warnings are problems that did not stop Pilot (a corrupt settings
	// file, an unknown provider in it...), one sentence each, to show.
	Warnings []string `json:"warnings,omitempty"`
}

// Resolve computes the configuration from env (usually os.Getenv), the
// .env file (ENV_PATH, or projectDir/.env), and the files in home. Errors
// in saved files become Warnings; the error result is for settings that
// make no sense in the environment (an unknown PILOT_PROVIDER, a
// PILOT_THINKING_BUDGET that is not a valid budget).
func Resolve(home, projectDir string, env func(string) string) (Resolved, error) {
	var r Resolved
	s, err := LoadSettings(home)
	if err != nil {
		r.Warnings = append(r.Warnings, err.Error())
	}
	keys, err := LoadKeys(home)
	if err != nil {
		r.Warnings = append(r.Warnings, err.Error())
	}
	r.Settings = s
	r.BudgetTokens, r.BudgetUSD = s.BudgetTokens, s.BudgetUSD

	savedProvider := s.Provider
	if savedProvider != "" && !validProvider(savedProvider) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s names the unknown provider %q; using %s", filepath.Join(home, SettingsFile), savedProvider, llm.ProviderAnthropic))
		savedProvider = ""
	}
	r.Provider = pick(env, "PILOT_PROVIDER", savedProvider, llm.ProviderAnthropic)
	r.Provider.Value = strings.ToLower(strings.TrimSpace(r.Provider.Value))
	if !validProvider(r.Provider.Value) {
		return r, fmt.Errorf("PILOT_PROVIDER=%q is not a provider: use one of %s (openai: any OpenAI-compatible server, with OPENAI_BASE_URL)", r.Provider.Value, strings.Join(llm.PresetIDs(), ", "))
	}
	p := r.Provider.Value

	// A saved model belongs to the saved provider.
	savedModel := ""
	if cmp.Or(s.Provider, llm.ProviderAnthropic) == p {
		savedModel = s.Model
	}
	// Each preset reads its own key variable (DEEPSEEK_API_KEY...); only
	// anthropic and openai have a base URL variable.
	preset, _ := llm.LookupPreset(p)
	r.BaseURL = pick(env, preset.BaseEnv, s.BaseURLs[p], llm.DefaultBaseURL(p))
	r.BaseURL.Value = strings.TrimRight(strings.TrimSpace(r.BaseURL.Value), "/")
	if p == llm.ProviderAnthropic {
		r.BaseURL.Value = strings.TrimSuffix(r.BaseURL.Value, "/v1") // documented without /v1; tolerate it
	}
	// A named service at any URL (a proxy too) serves its models; the
	// generic OpenAI-compatible choice elsewhere than OpenAI has its own.
	defaultModel := ""
	if p != llm.ProviderOpenAI || r.BaseURL.Value == strings.TrimRight(llm.DefaultBaseURL(p), "/") {
		defaultModel = llm.DefaultModel(p)
	}
	r.Model = pick(env, "PILOT_MODEL", savedModel, defaultModel)

	r.APIKey = pick(env, preset.KeyEnv, keys[p], "")
	if p == llm.ProviderAnthropic && r.APIKey.Source != SourceEnv {
		if v, ok := tsAgentKey(projectDir, env, &r.Warnings); ok {
			r.APIKey = v
		}
	}

	childenv.Hold(r.APIKey.Value) // the key in use, wherever it came from

	r.MaxTokens = Value[int]{Value: s.MaxTokens, Source: SourceSettings}
	if s.MaxTokens <= 0 {
		r.MaxTokens = Value[int]{Value: llm.DefaultMaxTokens(r.Model.Value), Source: SourceDefault}
	}
	r.Models = s.Models
	if err := CheckModels(s.Models); err != nil {
		r.Models = nil
		r.Warnings = append(r.Warnings, err.Error()+" (no model override of "+filepath.Join(home, SettingsFile)+" is used until then)")
	}
	r.ApprovalMode = Value[string]{Value: s.ApprovalMode, Source: SourceSettings}
	if !slices.Contains([]string{ApproveAsk, ApproveEdits, ApproveAll, ApproveNone, ApprovePlan}, s.ApprovalMode) {
		if s.ApprovalMode != "" {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s has the unknown approval mode %q; using %q", filepath.Join(home, SettingsFile), s.ApprovalMode, ApproveAsk))
		}
		r.ApprovalMode = Value[string]{Value: ApproveAsk, Source: SourceDefault}
	}
	if r.Thinking, err = resolveThinking(env, s.ThinkingBudget, p, r.Model.Value, home, &r.Warnings); err != nil {
		return r, err
	}
	return r, nil
}

// Sources are the files Resolve reads for projectDir: the settings and
// keys files in home, and the .env file (ENV_PATH, or projectDir/.env).
// Whoever keeps a Resolved knows from them when to resolve again.
func Sources(home, projectDir string, env func(string) string) []string {
	out := []string{filepath.Join(home, SettingsFile), filepath.Join(home, KeysFile)}
	if path := env("ENV_PATH"); path != "" {
		return append(out, path)
	}
	if projectDir != "" {
		out = append(out, filepath.Join(projectDir, ".env"))
	}
	return out
}

// pick returns the environment variable if set, else the saved value if
// set, else the default.
func pick(env func(string) string, name, saved, def string) Value[string] {
	if v := strings.TrimSpace(env(name)); name != "" && v != "" {
		return Value[string]{Value: v, Source: SourceEnv, From: name}
	}
	if saved != "" {
		return Value[string]{Value: saved, Source: SourceSettings}
	}
	return Value[string]{Value: def, Source: SourceDefault}
}

// tsAgentKey finds TS_AGENT_API_KEY in the environment, then in the file
// named by ENV_PATH, else in projectDir/.env, as the original REPL did.
func tsAgentKey(projectDir string, env func(string) string, warnings *[]string) (Value[string], bool) {
	if v := strings.TrimSpace(env("TS_AGENT_API_KEY")); v != "" {
		return Value[string]{Value: v, Source: SourceEnv, From: "TS_AGENT_API_KEY"}, true
	}
	path, named := env("ENV_PATH"), true
	if path == "" {
		if projectDir == "" {
			return Value[string]{}, false
		}
		path, named = filepath.Join(projectDir, ".env"), false
	}
	raw, err := readDotEnv(projectDir, path, named)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist) && !named:
		case named:
			*warnings = append(*warnings, fmt.Sprintf("cannot read %s (named by ENV_PATH): %v", path, err))
		default:
			*warnings = append(*warnings, err.Error())
		}
		return Value[string]{}, false
	}
	if v := parseDotEnv(string(raw))["TS_AGENT_API_KEY"]; v != "" {
		return Value[string]{Value: v, Source: SourceDotEnv, From: path}, true
	}
	return Value[string]{}, false
}

// dotEnv bounds a .env file.
var dotEnv = projectroot.Kind{Name: "a .env file", Limit: 64 << 10, Fix: "keep only the variables in it"}

// readDotEnv reads the .env file: the project's through the project's
// root (no link out of it, a regular file only, never waiting, bounded),
// one ENV_PATH names (named) as the user's own, regular and bounded too.
// A project's .env that is not read is a *projectroot.NotRead saying why.
func readDotEnv(projectDir, path string, named bool) ([]byte, error) {
	if named {
		return projectroot.ReadUserFile(path, dotEnv)
	}
	root, err := projectroot.New(projectDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadOwn(".env", dotEnv)
}

// parseDotEnv reads KEY=VALUE lines: blank lines and # comments skipped,
// an optional "export ", values optionally in single or double quotes, and
// " #" starting a comment after an unquoted value.
func parseDotEnv(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) > 0 && (value[0] == '"' || value[0] == '\'') {
			if end := strings.IndexByte(value[1:], value[0]); end >= 0 {
				value = value[1 : 1+end]
			}
		} else if i := strings.Index(value, " #"); i >= 0 {
			value = strings.TrimSpace(value[:i])
		}
		out[strings.TrimSpace(key)] = value
	}
	return out
}

func validProvider(p string) bool {
	_, ok := llm.LookupPreset(p)
	return ok
}

// LLM returns the configuration llm.New builds the provider from.
func (r Resolved) LLM() llm.Config {
	return llm.Config{
		Provider:  r.Provider.Value,
		Model:     r.Model.Value,
		BaseURL:   r.BaseURL.Value,
		URLHint:   r.urlHint(),
		APIKey:    r.APIKey.Value,
		MaxTokens: r.MaxTokens.Value,
	}
}

// urlHint names where the base URL comes from when it is not Settings.
func (r Resolved) urlHint() string {
	switch {
	case r.BaseURL.Source == SourceEnv && r.BaseURL.From != "":
		return "the base URL in the " + r.BaseURL.From + " environment variable"
	case r.BaseURL.Source == SourceDotEnv:
		return "the base URL in " + cmp.Or(r.BaseURL.From, "the project's .env")
	}
	return ""
}

// MaskedKey is the API key's origin with the key masked ("sk-ant-…3f9a"),
// for the Settings screen.
func (r Resolved) MaskedKey() Value[string] {
	v := r.APIKey
	v.Value = secret.Mask(v.Value)
	return v
}

// Redact removes the resolved API key and anything shaped like a key from
// s; use it on every log line and error text that may hold one.
func (r Resolved) Redact(s string) string { return secret.Redact(s, r.APIKey.Value) }

// Redact removes the given secrets and anything shaped like an API key
// (sk-..., sk-ant-..., bearer tokens) from s.
func Redact(s string, secrets ...string) string { return secret.Redact(s, secrets...) }

// LogRedactor is what every log line goes through: the API keys of the
// environment, and anything shaped like a key, are removed.
func LogRedactor(env func(string) string) func(string) string {
	keys := []string{env("TS_AGENT_API_KEY")}
	for _, p := range llm.Presets() {
		if p.KeyEnv != "" {
			keys = append(keys, env(p.KeyEnv))
		}
	}
	return func(s string) string { return secret.Redact(s, keys...) }
}

// Choose returns env with provider and model, when set, in place of
// PILOT_PROVIDER and PILOT_MODEL: how a session keeps the provider and
// model it was created with, and how --provider and --model win.
func Choose(env func(string) string, provider, model string) func(string) string {
	return func(k string) string {
		switch {
		case k == "PILOT_PROVIDER" && provider != "":
			return provider
		case k == "PILOT_MODEL" && model != "":
			return model
		}
		return env(k)
	}
}
