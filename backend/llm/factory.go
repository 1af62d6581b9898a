package llm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Provider names.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Config is everything needed to build a Provider; config.Resolved.LLM()
// produces it from the environment and the saved settings.
type Config struct {
	Provider  string // ProviderAnthropic or ProviderOpenAI
	Model     string // default model of requests that set none
	BaseURL   string // empty: the provider's default
	APIKey    string
	MaxTokens int // default answer limit of requests that set none
	// HTTPClient is used for every call (default http.DefaultClient). It
	// must not have a Timeout: answers stream for minutes.
	HTTPClient *http.Client
	Retry      RetryPolicy
	// StreamIdleTimeout is the longest the server may send nothing: while
	// the response headers are awaited, and between bytes of the answer
	// (SSE comments and pings count). Then the call fails with
	// KindStalled, and is retried if no part of the answer had arrived.
	// 0: DefaultAnthropicIdle or DefaultOpenAIIdle; negative: no limit.
	StreamIdleTimeout time.Duration
	// URLHint says where BaseURL is set, for error sentences ("the base
	// URL in the OPENAI_BASE_URL environment variable"); empty: Settings.
	URLHint string
}

// Preset is a known server with its base URL.
type Preset struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Provider string `json:"provider"`
	BaseURL  string `json:"baseUrl"`
	NeedsKey bool   `json:"needsKey"`
	Model    string `json:"model,omitempty"` // a sensible default model, if any
}

// Presets returns the servers the Settings screen offers.
func Presets() []Preset {
	return []Preset{
		{"anthropic", "Anthropic", ProviderAnthropic, "https://api.anthropic.com", true, DefaultAnthropicModel},
		{"openai", "OpenAI", ProviderOpenAI, "https://api.openai.com/v1", true, DefaultOpenAIModel},
		{"openrouter", "OpenRouter", ProviderOpenAI, "https://openrouter.ai/api/v1", true, "anthropic/claude-sonnet-4.5"},
		{"ollama", "Ollama", ProviderOpenAI, "http://localhost:11434/v1", false, ""},
		{"lmstudio", "LM Studio", ProviderOpenAI, "http://localhost:1234/v1", false, ""},
		{"llamacpp", "llama.cpp server", ProviderOpenAI, "http://localhost:8080/v1", false, ""},
	}
}

// DefaultBaseURL returns the official endpoint of a provider.
func DefaultBaseURL(provider string) string {
	if provider == ProviderOpenAI {
		return "https://api.openai.com/v1"
	}
	return "https://api.anthropic.com"
}

// DefaultModel returns the default model of a provider.
func DefaultModel(provider string) string {
	if provider == ProviderOpenAI {
		return DefaultOpenAIModel
	}
	return DefaultAnthropicModel
}

// New builds the Provider of cfg. An Anthropic key is required; an
// OpenAI-compatible server may do without one (local servers).
func New(cfg Config) (Provider, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if cfg.Provider == ProviderAnthropic {
		return NewAnthropic(cfg), nil
	}
	return NewOpenAI(cfg), nil
}

// ListModels asks the server of cfg for its models.
func ListModels(ctx context.Context, cfg Config) ([]ModelInfo, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if cfg.Provider == ProviderAnthropic {
		return NewAnthropic(cfg).Models(ctx)
	}
	return NewOpenAI(cfg).Models(ctx)
}

func (cfg Config) normalize() (Config, error) {
	cfg.Provider = strings.ToLower(strings.TrimSpace(cfg.Provider))
	if cfg.Provider == "" {
		cfg.Provider = ProviderAnthropic
	}
	if cfg.Provider != ProviderAnthropic && cfg.Provider != ProviderOpenAI {
		return cfg, fmt.Errorf("llm: unknown provider %q: use %q or %q (any OpenAI-compatible server)", cfg.Provider, ProviderAnthropic, ProviderOpenAI)
	}
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL(cfg.Provider)
	}
	if !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return cfg, fmt.Errorf("llm: base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	if cfg.Model == "" && cfg.BaseURL == DefaultBaseURL(cfg.Provider) {
		cfg.Model = DefaultModel(cfg.Provider)
	}
	if cfg.Provider == ProviderAnthropic {
		cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/v1") // the client adds /v1
		if cfg.APIKey == "" {
			return cfg, &Error{Kind: KindAuth, Provider: cfg.Provider, Message: "no API key is set", KeyHint: anthropicKeyHint}
		}
	}
	return cfg, nil
}
