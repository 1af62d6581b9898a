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
	// Provider is a preset id (Presets): ProviderAnthropic, ProviderOpenAI
	// (any OpenAI-compatible server), or a known server such as
	// "deepseek", which speaks one of the two protocols.
	Provider  string
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

// DefaultBaseURL returns the endpoint of a preset (Anthropic's for an
// unknown one).
func DefaultBaseURL(provider string) string {
	if p, ok := LookupPreset(provider); ok {
		return p.BaseURL
	}
	return "https://api.anthropic.com"
}

// DefaultModel returns the default model of a preset: "" for a local
// server (the user picks one of the models it has).
func DefaultModel(provider string) string {
	if p, ok := LookupPreset(provider); ok {
		return p.Model
	}
	return DefaultAnthropicModel
}

// Protocol returns the protocol a preset speaks: ProviderAnthropic or
// ProviderOpenAI ("" for an unknown id).
func Protocol(provider string) string {
	p, _ := LookupPreset(provider)
	return p.Provider
}

// New builds the Provider of cfg. An Anthropic key is required; an
// OpenAI-compatible server may do without one (local servers).
func New(cfg Config) (Provider, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if Protocol(cfg.Provider) == ProviderAnthropic {
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
	if Protocol(cfg.Provider) == ProviderAnthropic {
		return NewAnthropic(cfg).Models(ctx)
	}
	return NewOpenAI(cfg).Models(ctx)
}

func (cfg Config) normalize() (Config, error) {
	cfg.Provider = strings.ToLower(strings.TrimSpace(cfg.Provider))
	if cfg.Provider == "" {
		cfg.Provider = ProviderAnthropic
	}
	if _, ok := LookupPreset(cfg.Provider); !ok {
		return cfg, fmt.Errorf("llm: unknown provider %q: use one of %s (openai: any OpenAI-compatible server)", cfg.Provider, strings.Join(PresetIDs(), ", "))
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
	if Protocol(cfg.Provider) == ProviderAnthropic {
		cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/v1") // the client adds /v1
		if cfg.APIKey == "" {
			return cfg, &Error{Kind: KindAuth, Provider: cfg.Provider, Message: "no API key is set", KeyHint: anthropicKeyHint}
		}
	}
	return cfg, nil
}
