package llm

import (
	"regexp"
	"strings"
)

// Model describes a known model: its context window, output limit and
// prices in US dollars per million tokens.
type Model struct {
	ID            string
	Provider      string // "anthropic" or "openai"
	ContextWindow int
	MaxOutput     int
	Input         float64
	Output        float64
	CacheRead     float64
	CacheWrite    float64 // 0 where the provider does not charge writes
}

// ModelInfo is one entry of a server's model list.
type ModelInfo struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
	Known       bool   `json:"known"` // the model table has its window and prices
}

// Defaults used when nothing else is known.
const (
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1"
	// DefaultContextWindow is assumed for unknown hosted models.
	DefaultContextWindow = 128_000
	// LocalContextWindow is assumed for unknown models, which are mostly
	// local ones (Ollama, LM Studio, llama.cpp).
	LocalContextWindow = 32_000
	defaultMaxTokens   = 8192
)

// models is the model table (prices as published by the providers).
var models = []Model{
	{"claude-sonnet-4-5", "anthropic", 200_000, 64_000, 3, 15, 0.30, 3.75},
	{"claude-sonnet-4", "anthropic", 200_000, 64_000, 3, 15, 0.30, 3.75},
	{"claude-opus-4-5", "anthropic", 200_000, 64_000, 5, 25, 0.50, 6.25},
	{"claude-opus-4-1", "anthropic", 200_000, 32_000, 15, 75, 1.50, 18.75},
	{"claude-opus-4", "anthropic", 200_000, 32_000, 15, 75, 1.50, 18.75},
	{"claude-haiku-4-5", "anthropic", 200_000, 64_000, 1, 5, 0.10, 1.25},
	{"claude-3-5-haiku", "anthropic", 200_000, 8_192, 0.80, 4, 0.08, 1},
	{"gpt-4o", "openai", 128_000, 16_384, 2.50, 10, 1.25, 0},
	{"gpt-4o-mini", "openai", 128_000, 16_384, 0.15, 0.60, 0.075, 0},
	{"gpt-4.1", "openai", 1_047_576, 32_768, 2, 8, 0.50, 0},
	{"gpt-4.1-mini", "openai", 1_047_576, 32_768, 0.40, 1.60, 0.10, 0},
	{"gpt-4.1-nano", "openai", 1_047_576, 32_768, 0.10, 0.40, 0.025, 0},
	{"gpt-5", "openai", 400_000, 128_000, 1.25, 10, 0.125, 0},
	{"gpt-5-mini", "openai", 400_000, 128_000, 0.25, 2, 0.025, 0},
	{"o3", "openai", 200_000, 100_000, 2, 8, 0.50, 0},
	{"o4-mini", "openai", 200_000, 100_000, 1.10, 4.40, 0.275, 0},
}

var modelIndex = func() map[string]Model {
	m := make(map[string]Model, len(models))
	for _, md := range models {
		m[normalizeModel(md.ID)] = md
	}
	return m
}()

// dateSuffix matches the snapshot dates of model ids ("-20250929",
// "-2024-08-06") and "-latest".
var dateSuffix = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$`)

// normalizeModel makes ids comparable: lower case, without a vendor prefix
// ("anthropic/", "openai/"), a snapshot date, or dots ("claude-sonnet-4.5").
func normalizeModel(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	id = dateSuffix.ReplaceAllString(id, "")
	return strings.ReplaceAll(id, ".", "-")
}

// LookupModel finds a model in the table by its id, a dated snapshot id, or
// an OpenRouter-style id.
func LookupModel(id string) (Model, bool) {
	m, ok := modelIndex[normalizeModel(id)]
	return m, ok
}

// ContextWindow returns the model's context window in tokens: from the
// table, 200k for other Claude models, DefaultContextWindow for other
// OpenAI models, and LocalContextWindow for everything else.
func ContextWindow(model string) int {
	if m, ok := LookupModel(model); ok {
		return m.ContextWindow
	}
	n := normalizeModel(model)
	switch {
	case strings.HasPrefix(n, "claude"):
		return 200_000
	case strings.HasPrefix(n, "gpt-") || reasoningModel(n):
		return DefaultContextWindow
	}
	return LocalContextWindow
}

// DefaultMaxTokens is the answer limit sent when none is configured: 8192,
// or less when the model's output limit is lower.
func DefaultMaxTokens(model string) int {
	if m, ok := LookupModel(model); ok && m.MaxOutput < defaultMaxTokens {
		return m.MaxOutput
	}
	return defaultMaxTokens
}

// Cost returns the price of one call in US dollars; known is false when the
// model is not in the table (local models, unknown ids).
func Cost(model string, u Usage) (usd float64, known bool) {
	m, ok := LookupModel(model)
	if !ok {
		return 0, false
	}
	return PriceOf(Prices{Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheWrite: m.CacheWrite}, u), true
}

func modelInfo(id, display string) ModelInfo {
	_, known := LookupModel(id)
	return ModelInfo{ID: id, DisplayName: display, Known: known}
}
